#!/usr/bin/env bash
# The device call behind h100-store-off-2026-11-26.jsonl: what a shared
# store costs the shared-memory pipe when its predicate is off in every lane.
# APSP's relaxation (`if (through_k < tile[...]) tile[...] = through_k`) is a
# predicated STS that most steps no lane performs
# (sass/driver-2026-11-26/apsp-*/phase1.sass); the model charges such a
# store nothing. branch_free_throughput as written, then
# uniform-branch-store.comp.in with its store never taken (`!no_offset`) and
# always taken (`no_offset`), run as branch_one_side_throughput: every compute
# unit full (1024 workgroups of 256 lanes) at 16 and 64 iterations, and one
# workgroup an SM (132) at 64. Each point with a shader disk cache of its own,
# so that the driver's code comes back too (sass/driver_code.py).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
point() {  # NAME BENCH ITERATIONS WORKGROUPS
  driver_cache $1 timeout 60 $B validate micro --param bench=$2 --param iterations=$3 --param workgroup_size=256 \
    --param workgroups=$4 --no-check --resume --out /tmp/caches/$1/record.jsonl >> $OUT/log.txt 2>&1
}
for point in 16:1024 64:1024 64:132; do
  IFS=: read -r iterations workgroups <<< "$point"
  point free-$iterations-$workgroups branch_free_throughput $iterations $workgroups
  cp /tmp/caches/free-$iterations-$workgroups/record.jsonl /tmp/record.copy
  append_last_record /tmp/record.copy store-off.jsonl
  for when in '!no_offset' 'no_offset'; do
    name=store-${when/!/not-}-$iterations-$workgroups
    sed "s/@WHEN@/$when/g" validate/data/kernel-variants/uniform-branch-store.comp.in > /tmp/variant.comp
    with_source kernels/micro/uniform_branch.comp /tmp/variant.comp point $name branch_one_side_throughput \
      $iterations $workgroups
    cp /tmp/caches/$name/record.jsonl /tmp/record.copy
    append_last_record /tmp/record.copy store-off.jsonl \
      "validate/data/kernel-variants/uniform-branch-store.comp.in with @WHEN@ = $when"
  done
done
print_records $OUT/store-off.jsonl "p['bench'], p['iterations'], p['workgroups'], r.get('variant_source', 'as written')[-12:], '%.2f us' % (t['stats']['median'] / 1e3), r['clocks']['sm_mhz'], k"
tar czf $OUT/caches.tgz -C /tmp caches

#!/usr/bin/env bash
# The device call behind h100-branch-off-conflict-2026-11-27.jsonl: does a
# shared load predicated off in every lane pay the bank conflicts its lanes'
# words would have? APSP's phase 2 with its pivot_row side predicated costs
# the device what it costs with both sides performed (h100-apsp-phase2-
# select-shared-2026-11-27.jsonl), where a conflict-free load predicated
# off costs 0.645 of a performed one (uniform_branch, BRANCH 3).
# uniform-branch-off-conflict.comp.in run as branch_one_side_throughput
# (1024 workgroups of 256 lanes, 64 iterations) with its second side's
# words 1 or 32 words apart from lane to lane, predicated off in every lane
# (@WHEN@ = no_offset) or performed (!no_offset); branch_free_throughput as
# written beside them. Each point with a shader disk cache of its own, so
# that the driver's code comes back too (sass/driver_code.py). AHEAD=1
# (the 08:45Z call, h100-branch-off-conflict-ahead-2026-11-27.jsonl)
# computes the second side's indices before the if/else.
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
point() {  # NAME BENCH
  driver_cache $1 timeout 60 $B validate micro --param bench=$2 --param iterations=64 --param workgroup_size=256 \
    --param workgroups=1024 --no-check --resume --out /tmp/caches/$1/record.jsonl >> $OUT/log.txt 2>&1
}
point free branch_free_throughput
cp /tmp/caches/free/record.jsonl /tmp/record.copy
append_last_record /tmp/record.copy branch-off-conflict.jsonl
for stride in 1 32; do
  for when in 'no_offset' '!no_offset'; do
    name=stride-$stride-${when/!/not-}
    sed "s/@WHEN@/$when/g; s/@STRIDE@/$stride/g; /@AHEAD$((1 - ${AHEAD:-0}))@/d" validate/data/kernel-variants/uniform-branch-off-conflict.comp.in > /tmp/variant.comp
    with_source kernels/micro/uniform_branch.comp /tmp/variant.comp point $name branch_one_side_throughput
    cp /tmp/caches/$name/record.jsonl /tmp/record.copy
    append_last_record /tmp/record.copy branch-off-conflict.jsonl \
      "validate/data/kernel-variants/uniform-branch-off-conflict.comp.in with @STRIDE@ = $stride, @WHEN@ = $when, @AHEAD${AHEAD:-0}@ kept"
  done
done
print_records $OUT/branch-off-conflict.jsonl "p['bench'], r.get('variant_source', 'as written')[-40:], '%.2f us' % (t['stats']['median'] / 1e3), r['clocks']['sm_mhz'], k"
mv $OUT/branch-off-conflict.jsonl $OUT/h100-branch-off-conflict${AHEAD:+-ahead}-2026-11-27.jsonl
tar czf $OUT/caches.tgz -C /tmp caches
cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ 2>/dev/null || true

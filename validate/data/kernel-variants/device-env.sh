# Sourced by the run-*.sh scripts, from the repository root on the device
# machine: the NVIDIA runtime packages carried in .gpu-runtime installed,
# the driver's Vulkan ICD named, and B the Release build carried in build-device.
B=build-device/lanelab
for f in .gpu-runtime/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done; ldconfig
echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.3.0"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json
# transpose_points KERNEL FILE MATRICES...: the transpose at 256 lanes per
# workgroup on each payload, appended to $OUT/FILE.
transpose_points() {
  local kernel=$1 file=$2 m
  shift 2
  for m in "$@"; do
    timeout 60 $B validate transpose --param kernel=$kernel --param matrices=$m --param workgroup_size=256 \
      --resume --out $OUT/$file >> $OUT/log.txt 2>&1
  done
}
# with_source SOURCE VARIANT COMMAND...: COMMAND run with the kernel source
# SOURCE replaced by the variant file VARIANT, SOURCE restored after.
with_source() {
  local source=$1 variant=$2
  shift 2
  cp "$source" /tmp/with_source.orig
  cp "$variant" "$source"
  "$@"
  cp /tmp/with_source.orig "$source"
}
# append_last_record FROM FILE [VARIANT]: the last record of FROM appended to
# $OUT/FILE, VARIANT (when given) as its variant_source; FROM removed.
append_last_record() {
  python3 -c "
import json, sys; r = [json.loads(l) for l in open(sys.argv[1])][-1]
if sys.argv[2]: r['variant_source'] = sys.argv[2]
print(json.dumps(r, separators=(',', ':')))" "$1" "${3:-}" >> $OUT/$2
  rm -f "$1"
}
# annotate_last_record FILE FIELDS: FIELDS (Python statements on the record
# r, such as "r['variant_part'] = 3") applied to $OUT/FILE's last record.
annotate_last_record() {
  python3 -c "
import json, sys
lines = open(sys.argv[1]).read().splitlines(); r = json.loads(lines[-1])
$2
lines[-1] = json.dumps(r, separators=(',', ':')); open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')" "$OUT/$1"
}
# print_records FILE EXPRESSIONS: a line per record of FILE, the Python
# expressions EXPRESSIONS (comma-separated, of the record r, its params p,
# timing t and kernel statistics k) printed, or the error of a record
# without a time.
print_records() {
  python3 -c "
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if 'timing' not in r: print('error', r.get('error')); continue
    p, t, k = r['params'], r['timing'], r.get('kernel_statistics', {})
    print($2)" "$1"
}
# subgroup_add_points FILE [VARIANT]: the reduction subgroup_add at each of
# $SIZES floats, workgroups of $WGS lanes (256 unless set), per-dispatch
# times in each record, appended to $OUT/FILE
# (VARIANT, when given, as its variant_source).
subgroup_add_points() {
  local n
  for n in $SIZES; do
    timeout 60 $B validate reduce --param n=$n --param variant=subgroup_add --param workgroup_size=${WGS:-256} \
      --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl $1 "${2:-}"
  done
}
# pipeline_times FILE PIPELINE: a line per record of $OUT/FILE: its n, its
# variant, its check, each pipeline's time a dispatch, and PIPELINE's
# register count and binary size where the driver reports them.
pipeline_times() {
  python3 -c "
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    pp = r['timing']['per_pipeline']
    stats = r.get('kernel_statistics', {}).get(sys.argv[2], {})
    print(r['params']['n'], r.get('variant_source', 'as written'), r['correctness']['status'],
          ' '.join('%s %.2f us' % (k, v['median'] / 1e3 / v['dispatches']) for k, v in sorted(pp.items())),
          stats.get('Register Count', '-'), stats.get('Binary Size', '-'))" "$OUT/$1" "$2"
}
# dispatch_sequence_points FILE BENCH...: 64 dependent dispatches of each
# empty-kernel BENCH (dispatch_gap, dispatch_push ...) at 1 workgroup of 32
# lanes and 256 of 256, twice each in the order given, appended to $OUT/FILE
# (with $VARIANT, when set, as each record's variant_source).
dispatch_sequence_points() {
  local file=$1 round bench shape groups lanes
  shift
  for round in 1 2; do
    for bench in "$@"; do
      for shape in 1:32 256:256; do
        IFS=: read -r groups lanes <<< "$shape"
        timeout 60 $B validate micro --param bench=$bench --param iterations=64 --param workgroups=$groups \
          --param workgroup_size=$lanes --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
        append_last_record /tmp/p.jsonl $file "${VARIANT:-}"
      done
    done
  done
}
# empty_variant_point SOURCE TEMPLATE WORKGROUPS LANES FILE FIELDS: the empty
# micro with its kernel replaced by SOURCE (made from TEMPLATE) at WORKGROUPS
# workgroups of LANES lanes, 5 timed repeats, its record appended to
# $OUT/FILE with TEMPLATE as its variant_source and FIELDS (Python
# statements on the record r, such as "r['variant_shared_kb'] = 8").
empty_variant_point() {
  local source=$1 template=$2 groups=$3 lanes=$4 file=$5 fields=$6
  with_source kernels/micro/empty.comp "$source" timeout 60 $B validate micro --param bench=empty \
    --param workgroups=$groups --param workgroup_size=$lanes --repeats 5 --out /tmp/r.jsonl >> $OUT/log.txt 2>&1
  python3 -c "
import json; r = [json.loads(l) for l in open('/tmp/r.jsonl')][-1]; $fields
r['variant_source'] = '$template'; print(json.dumps(r, separators=(',', ':')))" >> $OUT/$file
  rm -f /tmp/r.jsonl
}
# apsp_points FILE N:BF:THREADS...: APSP's row-major tiles at each point,
# per-pipeline times over 5 timed repeats, checked up to n = 1024 (the CPU
# reference is quick there; APSP_CHECK=--no-check: none), appended to
# $OUT/FILE.
apsp_points() {
  local file=$1 point n bf threads check
  shift
  for point in "$@"; do
    IFS=: read -r n bf threads <<< "$point"
    check=${APSP_CHECK-$([ $n -le 1024 ] || echo --no-check)}
    timeout 120 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf \
      --param threads=$threads --param tile_layout=row $check --repeats 5 --resume \
      --out $OUT/$file >> $OUT/log.txt 2>&1
  done
}
# bank_throughput_points FILE ACCESS...: bank_throughput with every compute
# unit full (1024 workgroups of 256 lanes, 64 iterations), each access at 1-
# to 32-way, appended to $OUT/FILE.
bank_throughput_points() {
  local file=$1 access ways
  shift
  for access in "$@"; do
    for ways in 1 2 4 8 16 32; do
      timeout 60 $B validate micro --param bench=bank_throughput --param access=$access --param ways=$ways \
        --param iterations=64 --param workgroup_size=256 --param workgroups=1024 --resume \
        --out $OUT/$file >> $OUT/log.txt 2>&1
    done
  done
}
# phase2_variant_points FILE N:BF:THREADS:SHARE:VARIANT...: APSP at each point
# with kernels/apsp/blocked_fw_shared.comp replaced by what
# phase2_shared_variants.py SHARE VARIANT writes (restored after), row-major
# tiles (or PHASE2_LAYOUT's), per-pipeline times over 5 timed repeats, unchecked (most variants
# compute wrong distances), appended to $OUT/FILE in the order given.
phase2_variant_points() {
  local file=$1 point n bf threads share variant
  shift
  cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
  for point in "$@"; do
    IFS=: read -r n bf threads share variant <<< "$point"
    python3 validate/data/kernel-variants/phase2_shared_variants.py $share $variant kernels/apsp/blocked_fw_shared.comp
    timeout 120 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf --param threads=$threads \
      --param tile_layout=${PHASE2_LAYOUT:-row} --no-check --repeats 5 --out $OUT/point.jsonl >> $OUT/log.txt 2>&1
    cat $OUT/point.jsonl >> $OUT/$file && rm $OUT/point.jsonl
  done
  cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
}
# annotated_phase2_points FILE N:BF:THREADS:SHARE:VARIANT...:
# phase2_variant_points' records of the points, each with its
# variant_source (the phase2_shared_variants.py command that wrote its
# kernel) and variant_share, to $OUT/FILE.
annotated_phase2_points() {
  local file=$1
  shift
  phase2_variant_points unannotated.jsonl "$@"
  python3 -c "
import json, sys
for r, p in zip(map(json.loads, open(sys.argv[1])), sys.argv[2:]):
    share, variant = p.split(':')[3:]
    r['variant_source'] = 'validate/data/kernel-variants/phase2_shared_variants.py %s %s' % (share, variant)
    r['variant_share'] = int(share)
    print(json.dumps(r, separators=(',', ':')))" $OUT/unannotated.jsonl "$@" > $OUT/$file
  rm $OUT/unannotated.jsonl
}
# rotated_bandwidth_run WORKGROUPS OUT: bandwidth_rotated over 16 MiB (every
# pass from L2), 8 passes, WORKGROUPS workgroups of 256 lanes, unchecked,
# its record to OUT (run-bandwidth-words.sh and the scripts after it).
rotated_bandwidth_run() {
  timeout 60 $B validate micro --param bench=bandwidth_rotated --param bytes=16777216 --param iterations=8 \
    --param workgroups=$1 --param workgroup_size=256 --no-check --out $2 >> $OUT/log.txt 2>&1
}
# phase_times FILE: each APSP record of FILE on a line: its date, n, block
# factor, threads, SM clock, each pipeline's time per dispatch (us), and
# the driver's binary size and registers for phase 2.
phase_times() {
  python3 -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); p = r['params']; pp = r['timing']['per_pipeline']; phase2 = r['kernel_statistics']['phase2']
    print(r['date'], p['n'], p['block_factor'], p['threads'], r['clocks']['sm_mhz'],
          ' '.join('%s %.2f' % (k, v['median'] / 1e3 / v['dispatches']) for k, v in sorted(pp.items())),
          phase2['Binary Size'], phase2['Register Count'])
" "$1"
}
# APSP's seven row-major shapes of the suite, BF:TXxTY.
APSP_SHAPES="16:16x16 32:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13"
# phase_parts FILE PHASE "VARIANTS" "NS" "WRITTEN_NS": APSP_SHAPES with kernels/apsp/blocked_fw_shared.comp replaced by
# kernel-variants/apsp-PHASE-VARIANT.comp for each of VARIANTS at each n of
# NS, then as written at each n of WRITTEN_NS; per-pipeline times,
# unchecked. $OUT/FILE holds the written records first, then each
# variant's, those with variant_source.
phase_parts() {
  local file=$1 phase=$2 variants=$3 ns=$4 written_ns=$5 variant n s points
  for variant in $variants; do
    points=(); for n in $ns; do for s in $APSP_SHAPES; do points+=($n:$s); done; done
    APSP_CHECK=--no-check with_source kernels/apsp/blocked_fw_shared.comp \
      validate/data/kernel-variants/apsp-$phase-$variant.comp apsp_points $variant.jsonl "${points[@]}"
  done
  points=(); for n in $written_ns; do for s in $APSP_SHAPES; do points+=($n:$s); done; done
  APSP_CHECK=--no-check apsp_points written.jsonl "${points[@]}"
  python3 -c "
import json, sys
for f in ['written'] + sys.argv[3:]:
    for line in open(sys.argv[1] + '/' + f + '.jsonl'):
        r = json.loads(line)
        if f != 'written': r['variant_source'] = 'validate/data/kernel-variants/apsp-' + sys.argv[2] + '-' + f + '.comp'
        print(json.dumps(r, separators=(',', ':')))" $OUT $phase $variants > $OUT/$file
  phase_times $OUT/$file
}
# driver_cache NAME COMMAND...: COMMAND run with a shader disk cache of its
# own, /tmp/caches/NAME, whose entries are then its pipelines
# (sass/run-driver-cache.sh says how driver_code.py reads them).
driver_cache() {
  local name=$1
  shift
  (export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/caches/$name
   mkdir -p $__GL_SHADER_DISK_CACHE_PATH
   "$@")
}
# workload_driver_cache NAME WORKLOAD PARAMS...: one unchecked run of
# WORKLOAD with PARAMS in driver_cache NAME, its record beside the cache.
workload_driver_cache() {
  local name=$1 workload=$2
  shift 2
  driver_cache $name timeout 60 $B validate $workload "$@" --no-check --repeats 1 --warmup 0 \
    --out /tmp/caches/$name/record.jsonl >> $OUT/log.txt 2>&1
}
# phase_variant_driver_caches PHASE VARIANT...: the driver's code of each
# kernel-variants/apsp-PHASE-VARIANT.comp for APSP_SHAPES at n = 1000, in
# workload_driver_cache apsp-VARIANT-BF-THREADS (/tmp/caches emptied first).
phase_variant_driver_caches() {
  local phase=$1 variant shape bf threads
  shift
  rm -rf /tmp/caches
  for variant in "$@"; do
    for shape in $APSP_SHAPES; do
      IFS=: read -r bf threads <<< "$shape"
      with_source kernels/apsp/blocked_fw_shared.comp validate/data/kernel-variants/apsp-$phase-$variant.comp \
        workload_driver_cache apsp-$variant-$bf-$threads apsp --param n=1000 --param edges=4000 --param block_factor=$bf \
        --param threads=$threads
    done
  done
}
# micro_driver_cache NAME BENCH ITERATIONS [SOURCE VARIANT]: one run of the
# micro BENCH (one workgroup of $LANES lanes, 32 unless set) in
# workload_driver_cache NAME (with SOURCE replaced by VARIANT when given).
# micro_driver_caches_out: the caches and nvdisasm to $OUT.
micro_driver_cache() {
  local params=(--param bench=$2 --param iterations=$3 --param workgroup_size=${LANES:-32} --param workgroups=1)
  if [ -n "${4:-}" ]; then with_source "$4" "$5" workload_driver_cache $1 micro "${params[@]}"
  else workload_driver_cache $1 micro "${params[@]}"; fi
}
micro_driver_caches_out() {
  ls /tmp/caches | wc -l
  tar czf $OUT/caches.tgz -C /tmp caches
  cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ && ls -la $OUT
}

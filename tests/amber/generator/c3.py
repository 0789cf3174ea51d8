from lib import *
import random
rnd = random.Random(1234)

# ---------- nested_if_switch ----------
xs = [rnd.randint(-40, 80) for _ in range(32)]
xs[3] = 0; xs[10] = 0; xs[5] = 52; xs[6] = 51; xs[7] = -8; xs[8] = -9; xs[9] = -10; xs[11] = -11
def nested(x):
    r = 0
    if x > 0:
        if x & 1 == 0:
            r = x // 2
            if x > 50: r += 1000
        else:
            r = 3 * x + 1
    elif x == 0:
        r = -100
    else:
        sw = (-x) % 4
        if sw == 0: r = 1
        elif sw == 1: r = 2; r += 5
        elif sw == 2: r += 5
        else: r = -x
    return r
C('nested_if_switch', '''
#!amber
# Divergent nested if/else-if/else and a switch with fall-through; every lane
# takes its own path and all reconverge before the store.
SHADER compute nest GLSL
#version 450
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer In { int v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { int v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  int x = inb.v[i];
  int r = 0;
  if (x > 0) {
    if ((x & 1) == 0) {
      r = x / 2;
      if (x > 50) r += 1000;
    } else {
      r = 3 * x + 1;
    }
  } else if (x == 0) {
    r = -100;
  } else {
    switch ((-x) % 4) {
      case 0: r = 1; break;
      case 1: r = 2;  // falls through
      case 2: r += 5; break;
      default: r = -x;
    }
  }
  o.v[i] = r;
}
END

BUFFER in_buf DATA_TYPE int32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE int32 SIZE 32 FILL 0

PIPELINE compute pipe
  ATTACH nest
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', [nested(x) for x in xs]))
''')

# ---------- loops_per_lane ----------
ns = [rnd.randint(0, 24) for _ in range(32)]
ns[0] = 0; ns[1] = 1; ns[2] = 24
def loops(i, n):
    s = 0
    for k in range(n):
        if k % 3 == 1: continue
        s = u32(s + k * (i + 1))
        if s > 200: break
    c = 0; y = n
    while y != 0:
        y &= y - 1; c += 1
    j = 0
    while True:
        j += 2
        if not (j < n): break
    acc = 0
    for k in range(n):
        for m in range(k):
            if m == 3: break
            if (k + m) % 2 == 1: continue
            acc += k * m + 1
    return [s, c, j, acc]
lres = []
for i, n in enumerate(ns): lres += loops(i, n)
C('loops_per_lane', '''
#!amber
# Loops whose trip count differs per lane: for with continue and break, a
# while loop (popcount by clearing bits), a do-while, and nested loops with
# break/continue in the inner loop.
SHADER compute loops GLSL
#version 450
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint n = inb.v[i];
  uint s = 0u;
  for (uint k = 0u; k < n; ++k) {
    if ((k % 3u) == 1u) continue;
    s += k * (i + 1u);
    if (s > 200u) break;
  }
  uint c = 0u;
  uint y = n;
  while (y != 0u) { y &= y - 1u; c++; }
  uint j = 0u;
  do { j += 2u; } while (j < n);
  uint acc = 0u;
  for (uint k = 0u; k < n; ++k) {
    for (uint m = 0u; m < k; ++m) {
      if (m == 3u) break;
      if (((k + m) % 2u) == 1u) continue;
      acc += k * m + 1u;
    }
  }
  o.v[4u * i + 0u] = s;
  o.v[4u * i + 1u] = c;
  o.v[4u * i + 2u] = j;
  o.v[4u * i + 3u] = acc;
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(ns))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 128 FILL 0

PIPELINE compute pipe
  ATTACH loops
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', lres))
''')

# ---------- early_return ----------
def er(i):
    v = 1
    if i % 3 == 0: return v
    v += 10
    if i % 5 == 1: return v      # helper returned true
    v += 100
    k = i % 7
    # out-param helper: twice(i) -> 2*i stored in t
    v += 2 * i * 0  # placeholder (not used)
    for kk in range(8):
        if kk == k:
            v += 1000 * kk
            return v
    return v + 7
C('early_return', '''
#!amber
# Early return from main at several depths (top level, after a function
# call, inside a loop); lanes that returned keep what they stored so far.
# 48 invocations in 3 workgroups of 16.
SHADER compute early GLSL
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
bool quits(uint i) {
  if (i % 5u == 1u) return true;
  return false;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  o.v[i] = 1u;
  if (i % 3u == 0u) return;
  o.v[i] += 10u;
  if (quits(i)) return;
  o.v[i] += 100u;
  uint k = i % 7u;
  for (uint kk = 0u; kk < 8u; ++kk) {
    if (kk == k) {
      o.v[i] += 1000u * kk;
      return;
    }
  }
  o.v[i] += 7u;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 48 FILL 0

PIPELINE compute pipe
  ATTACH early
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 3 1 1
$(expect('out_buf', [er(i) for i in range(48)]))
''')

# ---------- functions_inout ----------
def fn(i):
    a = i; b = 0
    # swap_add(inout a, out b): b = a * 2; a = a + 3
    b = a * 2; a = a + 3
    c = clampsum(a, b)
    return [a, b, c]
def clampsum(a, b):
    s = a + b
    if s > 20: return 20
    return s
fres = []
for i in range(16): fres += fn(i)
C('functions_inout', '''
#!amber
# Function calls with in, out and inout parameters and a divergent return
# inside a called function.
SHADER compute fns GLSL
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void swap_add(inout uint a, out uint b) {
  b = a * 2u;
  a = a + 3u;
}
uint clampsum(uint a, uint b) {
  uint s = a + b;
  if (s > 20u) return 20u;
  return s;
}
void main() {
  uint i = gl_LocalInvocationIndex;
  uint a = i;
  uint b;
  swap_add(a, b);
  o.v[3u * i] = a;
  o.v[3u * i + 1u] = b;
  o.v[3u * i + 2u] = clampsum(a, b);
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 48 FILL 0

PIPELINE compute pipe
  ATTACH fns
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
$(expect('out_buf', fres))
''')

# ---------- compare_select ----------
ia = [rnd.randint(-5, 5) for _ in range(16)]
ib = [rnd.randint(-5, 5) for _ in range(16)]
ia[0] = -1; ib[0] = 1
def cs(a, b):
    ua, ub = u32(a), u32(b)
    bits = (int(a < b) | int(a <= b) << 1 | int(a > b) << 2 | int(a >= b) << 3 | int(a == b) << 4
            | int(a != b) << 5 | int(ua < ub) << 6 | int(ua > ub) << 7 | int(float(a) < float(b)) << 8)
    sel = a if a > b else b
    sel2 = u32(a * 2) if (a & 1) != 0 else u32(b - 1)
    return [bits, u32(sel), sel2, u32(min(a, b)), min(ua, ub), u32(max(a, b)) ]
cres = []
for a, b in zip(ia, ib): cres += cs(a, b)
C('compare_select', '''
#!amber
# Signed, unsigned and float comparisons packed into a bit mask, ?: lowered to
# OpSelect or a phi, and int/uint min/max (unsigned compares see -1 as huge).
SHADER compute cmp GLSL
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer A { int v[]; } ina;
layout(std430, set = 0, binding = 1) buffer B { int v[]; } inb;
layout(std430, set = 0, binding = 2) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  int a = ina.v[i];
  int b = inb.v[i];
  uint ua = uint(a), ub = uint(b);
  uint bits = uint(a < b) | uint(a <= b) << 1 | uint(a > b) << 2 | uint(a >= b) << 3
            | uint(a == b) << 4 | uint(a != b) << 5 | uint(ua < ub) << 6 | uint(ua > ub) << 7
            | uint(float(a) < float(b)) << 8;
  o.v[6u * i + 0u] = bits;
  o.v[6u * i + 1u] = uint(a > b ? a : b);
  uint s2;
  if ((a & 1) != 0) s2 = uint(a * 2); else s2 = uint(b - 1);
  o.v[6u * i + 2u] = s2;
  o.v[6u * i + 3u] = uint(min(a, b));
  o.v[6u * i + 4u] = min(ua, ub);
  o.v[6u * i + 5u] = uint(max(a, b));
}
END

BUFFER a_buf DATA_TYPE int32 DATA
$(data(ia))
END
BUFFER b_buf DATA_TYPE int32 DATA
$(data(ib))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 96 FILL 0

PIPELINE compute pipe
  ATTACH cmp
  BIND BUFFER a_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER b_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 2
END

RUN pipe 1 1 1
$(expect('out_buf', cres, per_line=12))
''')

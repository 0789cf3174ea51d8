import os, re, struct, subprocess, math
OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
CASES = []
M32 = 0xFFFFFFFF
def u32(x): return x & M32
def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x
def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def fbits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def bitsf(u): return struct.unpack('<f', struct.pack('<I', u & M32))[0]
def fmt(v):
    if isinstance(v, float):
        assert f32(v) == v, v
        r = repr(v)
        if r.endswith('.0'): r = r[:-2] + '.0'
        return r
    return str(v)
def expect(buf, vals, per_line=16, elem=4, start=0, tol=None):
    lines = []
    for i in range(0, len(vals), per_line):
        chunk = vals[i:i + per_line]
        t = f' TOLERANCE {tol}' if tol is not None else ''
        lines.append(f'EXPECT {buf} IDX {(start + i) * elem}{t} EQ ' + ' '.join(fmt(v) for v in chunk))
    return '\n'.join(lines)
def data(vals, per_line=16):
    return '\n'.join('  ' + ' '.join(fmt(v) for v in vals[i:i + per_line]) for i in range(0, len(vals), per_line))
def case(name, text):
    text = text.strip('\n') + '\n'
    assert text.startswith('#!amber'), name
    CASES.append((name, text))
    with open(os.path.join(OUT, name + '.amber'), 'w') as f:
        f.write(text)
def groups(L, W):
    return [list(range(s, min(s + W, L))) for s in range(0, L, W)]
import inspect
def render(text, env):
    out = []; i = 0
    while True:
        j = text.find('$(', i)
        if j < 0: out.append(text[i:]); break
        out.append(text[i:j])
        depth = 0; k = j + 1
        while True:
            if text[k] == '(': depth += 1
            elif text[k] == ')':
                depth -= 1
                if depth == 0: break
            k += 1
        out.append(str(eval(text[j + 2:k], env)))
        i = k + 1
    return ''.join(out)
def C(name, text):
    env = inspect.currentframe().f_back.f_globals
    case(name, render(text, env))

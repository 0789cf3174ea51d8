import re, subprocess, sys, os, glob, tempfile
ok = True
files = sys.argv[1:] or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '*.amber')))
for path in files:
    lines = open(path).read().split('\n')
    base = os.path.basename(path)
    shaders = {}
    i = 0
    while i < len(lines):
        m = re.match(r'SHADER compute (\S+) (GLSL|HLSL|SPIRV-ASM)\b(.*)', lines[i])
        if m:
            j = i + 1; body = []
            while lines[j] != 'END': body.append(lines[j]); j += 1
            shaders[m.group(1)] = (m.group(2), '\n'.join(body) + '\n', i + 1)
            i = j
        i += 1
    eps = dict(re.findall(r'ATTACH (\S+) ENTRY_POINT (\S+)', '\n'.join(lines)))
    expect_fail_val = 'EXPECT-ERROR: validation' in '\n'.join(lines)
    for name, (lang, src, ln) in shaders.items():
        d = tempfile.mkdtemp()
        if lang == 'GLSL':
            p = os.path.join(d, 'x.comp'); open(p, 'w').write(src)
            cmd = [['glslangValidator', '-V', '--target-env', 'vulkan1.2', p, '-o', p + '.spv']]
        elif lang == 'HLSL':
            p = os.path.join(d, 'x.hlsl'); open(p, 'w').write(src)
            cmd = [['glslangValidator', '-V', '-D', '-e', eps.get(name, 'main'), '-S', 'comp', '--target-env', 'vulkan1.1', p, '-o', p + '.spv']]
        else:
            p = os.path.join(d, 'x.spvasm'); open(p, 'w').write(src)
            cmd = [['spirv-as', '--target-env', 'vulkan1.2', p, '-o', p + '.spv'],
                   ['spirv-val', '--target-env', 'vulkan1.2', p + '.spv']]
        res = 'ok'
        for c in cmd:
            r = subprocess.run(c, capture_output=True, text=True)
            if r.returncode != 0:
                res = 'FAIL ' + (r.stdout + r.stderr).strip().replace('\n', ' | ')[:600]
                break
        if lang != 'SPIRV-ASM' and res == 'ok':
            r = subprocess.run(['spirv-val', '--target-env', 'vulkan1.1' if lang == 'HLSL' else 'vulkan1.2', p + '.spv'], capture_output=True, text=True)
            if r.returncode: res = 'VALFAIL ' + r.stderr[:300]
        good = (res == 'ok') != expect_fail_val
        if not good: ok = False
        print(('  ' if good else '!!'), base, name, lang, res if not good or res != 'ok' else '')
sys.exit(0 if ok else 1)

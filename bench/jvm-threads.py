# The CPU seconds of each JVM thread (grouped: parse threads, C1/C2 compilers, GC, main) of one diagnose
# of a bench shape with -Xmx256m, read from /proc while it runs (docs/performance.md, fourth pass).
# Usage (repository root): python3 bench/jvm-threads.py JAR SHAPE [JVM options...]  (bench-data/SHAPE-1024.log)
import subprocess, sys, os, time, collections, re
jar, shape = sys.argv[1], sys.argv[2]
java = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'java')
p = subprocess.Popen([java, '-Xmx256m'] + sys.argv[3:] + ['-jar', jar, 'diagnose', '--format', 'json', '--fold-channels', 'bench-data/%s-1024.log' % shape], stdout=open('bench-data/threads-out.json', 'w'))
last = {}
tck = os.sysconf('SC_CLK_TCK')
t0 = time.time()
while p.poll() is None:
    try:
        for tid in os.listdir('/proc/%d/task' % p.pid):
            try:
                s = open('/proc/%d/task/%s/stat' % (p.pid, tid)).read()
                name = s[s.index('(')+1:s.rindex(')')]
                f = s[s.rindex(')')+2:].split()
                last[tid] = (name, (int(f[11]) + int(f[12])) / tck)
            except OSError: pass
    except OSError: pass
    time.sleep(0.2)
wall = time.time() - t0
g = collections.Counter()
for name, cpu in last.values():
    g[re.sub(r'(?<=[a-z ])[#\d]+$', 'N', name)] += cpu
print('wall %.2f, cpu %.2f' % (wall, sum(g.values())))
for k, v in g.most_common(12): print('  %-20s %6.2f' % (k, v))

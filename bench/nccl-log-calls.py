#!/usr/bin/env python3
"""Lists every WARN and INFO call of a libnccl.so: level, source file (WARN) or function (INFO), line, format.

NCCL logs through ncclDebugLog(level, flags, file_or_func, line, fmt, ...): on x86-64 the level is in edi, the
file in rdx, the line in ecx and the format in r8 when the call is made. This reads `objdump -d` of the library,
remembers the last constant or string address loaded into each register, and at every call prints the calls
whose level is 2 (WARN) or 3 (INFO) and whose file and format are strings. The called function is the same for
all of them (the stripped library's ncclDebugLog); calls whose arguments are set around other calls are missed.

Usage: bench/nccl-log-calls.py /usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3 > calls.tsv
Output columns: target address, level (2 WARN, 3 INFO), file or function, line, format (\\n for newlines).
Used for the message sweep of issue 10 (topolens-core/src/test/resources/nccl/messages/README.md).
"""
import re
import subprocess
import sys


def main(path):
    data = open(path, 'rb').read()
    sections = []
    for line in subprocess.run(['objdump', '-h', path], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) > 5 and p[0].isdigit():
            sections.append((int(p[3], 16), int(p[2], 16), int(p[5], 16)))

    def string_at(addr):
        for vma, size, off in sections:
            if vma <= addr < vma + size:
                i = addr - vma + off
                end = data.find(b'\0', i, i + 400)
                return data[i:end].decode('latin1') if end > 0 else None
        return None

    def arg(state, *regs):
        for r in regs:
            if r in state:
                return state[r]
        return (None, -1)

    state = {}
    dis = subprocess.Popen(['objdump', '-d', '--no-show-raw-insn', path], stdout=subprocess.PIPE, text=True)
    for line in dis.stdout:
        m = re.search(r'\t(mov|lea)\w*\s+(\S+),%(\w+)\s*(#.*)?$', line)
        if m:
            reg, src = m.group(3), m.group(2)
            target = re.search(r'# ([0-9a-f]+)', line)
            if target and m.group(1) == 'lea':
                state[reg] = ('addr', int(target.group(1), 16))
            elif src.startswith('$'):
                try:
                    state[reg] = ('imm', int(src[1:], 16))
                except ValueError:
                    state.pop(reg, None)
            else:
                state.pop(reg, None)
        elif re.search(r'\txor\s+%(\w+),%\1', line):
            state[re.search(r'%(\w+)$', line.strip()).group(1)] = ('imm', 0)
        elif '\tcall' in line or '\tjmp' in line:
            call = re.search(r'call\w*\s+([0-9a-f]+)', line)
            level = arg(state, 'edi', 'rdi')
            where = arg(state, 'rdx', 'edx')
            num = arg(state, 'ecx', 'rcx')
            fmt = arg(state, 'r8', 'r8d')
            if call and level[1] in (2, 3) and where[0] == 'addr' and fmt[0] == 'addr':
                w, f = string_at(where[1]), string_at(fmt[1])
                if w and f:
                    n = num[1] if num[0] == 'imm' else '?'
                    print(call.group(1), level[1], w, n, f.replace('\n', '\\n').replace('\t', ' '), sep='\t')
            state = {}


if __name__ == '__main__':
    main(sys.argv[1])

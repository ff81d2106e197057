#!/usr/bin/env python3
"""lsp-latency.py - warm latency of `ptxdvfs lsp` from didSave to publishDiagnostics.

Usage: bench/lsp-latency.py [PTXDVFS] [REPEATS] [INSTRUCTIONS]
  PTXDVFS       the program (default build/ptxdvfs)
  REPEATS       timed saves after 5 warm-up ones (default 50)
  INSTRUCTIONS  size of the generated kernel (default 1000)

The document is a generated .ptx kernel of INSTRUCTIONS instructions (loads,
a chain of fma, a store), so nvcc is not involved: what is timed is the
server's own work (parse, loop analysis, encoding, prediction, hints) plus
the pipe round trip. Prints the median, 90th percentile and maximum in ms.
"""
import json, os, statistics, subprocess, sys, tempfile, time

program = sys.argv[1] if len(sys.argv) > 1 else "build/ptxdvfs"
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 50
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000

body = ["\tld.param.u64 %rd1, [k_param_0];", "\tcvta.to.global.u64 %rd2, %rd1;",
        "\tld.global.f32 %f1, [%rd2];"]
for i in range(2, count - 2):
    body.append(f"\tfma.rn.f32 %f{i}, %f{i - 1}, %f1, %f{i - 1};")
body += [f"\tst.global.f32 [%rd2], %f{count - 3};", "\tret;"]
text = (".version 8.0\n.target sm_80\n.address_size 64\n\n"
        ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
        f"\t.reg .f32 %f<{count}>;\n\t.reg .b64 %rd<3>;\n\n" + "\n".join(body) + "\n}\n")
folder = tempfile.mkdtemp(prefix="ptxdvfs-lsp-bench-")
path = os.path.join(folder, "kernel.ptx")
with open(path, "w") as f:
    f.write(text)
uri = "file://" + path

extra = os.environ.get("LSP_ARGS", "").split()
server = subprocess.Popen([program, "lsp", "--all"] + extra, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

def send(message):
    data = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
    server.stdin.flush()

def receive():
    length = 0
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(server.stdout.read(length))

def wait_for_diagnostics():
    while True:
        message = receive()
        if message.get("method") == "textDocument/publishDiagnostics":
            return message

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
receive()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "ptx", "version": 1, "text": text}}})
first = wait_for_diagnostics()
if not first["params"]["diagnostics"]:
    sys.exit("no diagnostic for the generated kernel")
times = []
for i in range(5 + repeats):
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didSave",
          "params": {"textDocument": {"uri": uri}, "text": text}})
    wait_for_diagnostics()
    if i >= 5:
        times.append(1000 * (time.perf_counter() - start))
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
receive()
send({"jsonrpc": "2.0", "method": "exit"})
server.wait()
os.remove(path)
os.rmdir(folder)
times.sort()
print(f"didSave -> publishDiagnostics, {count}-instruction kernel, {repeats} saves: "
      f"median {statistics.median(times):.2f} ms, p90 {times[int(0.9 * (len(times) - 1))]:.2f} ms, "
      f"max {times[-1]:.2f} ms")

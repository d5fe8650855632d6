#!/usr/bin/env python3
"""`lens mcp` timed over stdio with raw JSON-RPC lines (no client library in the way): the time
from start to the answer to `initialize`, and per tool the time from writing a call to reading its
answer, over many calls.

    Tests/mcp/measure_mcp.py DB [CALLS] [LENS]    (e.g. /tmp/lens-100k.db 200 .build/release/lens)
"""
import json
import random
import statistics
import subprocess
import sys
import time

WORDS = ["invoice", "meeting", "error", "order", "deploy", "password", "total", "flight", "refund", "schedule",
         "report", "login", "account", "receipt", "update"]


def main():
    db = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    lens = sys.argv[3] if len(sys.argv) > 3 else ".build/release/lens"
    random.seed(7)
    started = time.perf_counter()
    server = subprocess.Popen([lens, "mcp", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    counter = iter(range(1, 10**9))

    def ask(method, params):
        number = next(counter)
        server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}) + "\n").encode())
        while True:
            answer = json.loads(server.stdout.readline())
            if answer.get("id") == number:
                return answer

    ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "measure", "version": "0"}})
    print(f"start-up to initialize answered: {(time.perf_counter() - started) * 1000:.0f} ms")
    server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    listed = ask("tools/call", {"name": "search_screenshots", "arguments": {"query": "total", "limit": 100}})
    ids = [hit["id"] for hit in listed["result"]["structuredContent"]["results"]] or [1]
    kinds = {
        "search_screenshots": lambda: {"query": random.choice(WORDS), "limit": 20},
        "search_screenshots (type phone, since 30d)": lambda: {"query": random.choice(WORDS), "type": "phone", "since": "3650d"},
        "get_screenshot": lambda: {"id": random.choice(ids)},
        "list_entities": lambda: {"limit": 20},
        "connections": lambda: {"id": random.choice(ids), "depth": 2},
    }
    for kind, arguments in kinds.items():
        times, errors = [], 0
        for _ in range(calls):
            t0 = time.perf_counter()
            answer = ask("tools/call", {"name": kind.split(" ")[0], "arguments": arguments()})
            times.append((time.perf_counter() - t0) * 1000)
            errors += "error" in answer
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{kind:45s} p50 {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms   max {times[-1]:7.1f} ms   errors {errors}/{calls}")
    server.stdin.close()
    server.wait(timeout=60)


if __name__ == "__main__":
    main()

"""RFC 6455 conformance of the real Swift transport (RELIABILITY.md rows T8, T9, T10).

The debug `footlight-demo` runs on 127.0.0.1 and an ephemeral port with its test-only
echo endpoint (`--echo-path`), and kosoku (the Autobahn TestSuite cases, from PyPI)
drives it. kosoku's report (`index.json`, Autobahn's format) is read back and every case
must pass (OK, NON-STRICT or INFORMATIONAL, with a clean close) unless it is listed below
by id with the reason. A raw-socket probe checks that invalid UTF-8 closes with 1007.

Reports go to artifacts/autobahn/. Every wait is bounded: kosoku by RUN_SECONDS, the
server's start by START_SECONDS, each socket read by PROBE_SECONDS.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
REPORTS = REPO / "artifacts" / "autobahn"
ECHO_PATH = "/echo"
START_SECONDS = 10
RUN_SECONDS = 240
PROBE_SECONDS = 5

PASSING = {"OK", "NON-STRICT", "INFORMATIONAL"}
PASSING_CLOSE = {"OK", "INFORMATIONAL"}

# Sections 1-7, 9 and 10: framing, pings, reserved bits, opcodes, fragmentation, UTF-8,
# closing, limits and performance, auto-fragmentation.
FRAMING_SECTIONS = ["1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "9.*", "10.*"]
# Sections 12 and 13: permessage-deflate offers, which the server must not take up.
COMPRESSION_SECTIONS = ["12.*", "13.*"]

# libwebsockets 4.1.6 answers only some of several pings in flight ("There is no
# requirement to handle multiple PING / PONG in flight ... lws doesn't waste memory on
# it"); its own Autobahn script excludes these two cases for the same reason.
LWS_PING_EXCEPTIONS = {"2.10", "2.11"}

# Messages over the server's 64 KiB inbound cap (ServerConfiguration.maximumMessageBytes):
# 256 KiB to 16 MiB whole (9.1.2-9.1.6 text, 9.2.2-9.2.6 binary), 4 MiB in fragments of
# 64 B to 4 MiB (9.3.x text, 9.4.x binary), 1 MiB written in chops (9.5.x, 9.6.x). The
# server refuses each on its declared length and closes with 1009 instead of echoing, so
# Autobahn marks them FAILED. When the fragments are small, kosoku may still be writing
# when the server closes the socket, and the TCP reset can drop the close frame before
# kosoku reads it: for those the connection must at least have ended at the server's hand.
OVER_CAP = (
    {f"9.1.{n}" for n in range(2, 7)}
    | {f"9.2.{n}" for n in range(2, 7)}
    | {f"9.3.{n}" for n in range(1, 10)}
    | {f"9.4.{n}" for n in range(1, 10)}
    | {f"9.5.{n}" for n in range(1, 7)}
    | {f"9.6.{n}" for n in range(1, 7)}
)
MESSAGE_TOO_BIG = 1009

# kosoku 0.1.0 itself fails the handshake of 13.7.1-13.7.18 ("peer closed during
# handshake"); the same extension offers sent by hand get 101 without an extension.
# Allowed only under kosoku, and only as that runner error.
KOSOKU_HANDSHAKE_ERRORS = {f"13.7.{n}" for n in range(1, 19)}


def case_key(case_id: str) -> list[int]:
    return [int(part) for part in case_id.split(".")]


# ---- The server ----------------------------------------------------------------------------


def _die_with_parent():
    """Runs in the server's child process: the kernel kills it if pytest dies first."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _server_binary() -> Path:
    override = os.environ.get("FOOTLIGHT_DEMO_BIN")
    if override:
        return Path(override)
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    ).stdout.strip()
    return Path(bin_path) / "footlight-demo"


@dataclass
class EchoServer:
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{ECHO_PATH}"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> EchoServer:
    binary = _server_binary()
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no server binary at {binary}: run `swift build --product footlight-demo` first")
    log = tmp_path_factory.mktemp("echo-server") / "stderr.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            [str(binary), "--host", "127.0.0.1", "--port", "0", "--public-directory", str(REPO / "Public"),
             "--echo-path", ECHO_PATH, "--log-level", "warning", "--app", "counter"],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, text=True,
            preexec_fn=_die_with_parent,
        )
    try:
        port = _read_port(process)
        yield EchoServer(process, port, log)
        assert process.poll() is None, f"the server died during the run:\n{log.read_text(errors='replace')}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _read_port(process: subprocess.Popen) -> int:
    """The port from the line the demo prints once it listens ("… on http://127.0.0.1:PORT/")."""

    def expire(signum, frame):
        raise TimeoutError(f"the server printed no address within {START_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(START_SECONDS)
    try:
        line = process.stdout.readline()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    marker = "http://127.0.0.1:"
    if marker not in line:
        raise RuntimeError(f"unexpected first line from the server: {line!r}")
    return int(line.split(marker, 1)[1].split("/", 1)[0])


# ---- kosoku -----------------------------------------------------------------------------------


def run_kosoku(server: EchoServer, name: str, sections: list[str]) -> dict[str, dict]:
    """Runs the cases of `sections` against the echo endpoint; their entries of index.json."""
    kosoku = shutil.which("kosoku")
    if kosoku is None:
        pytest.fail("kosoku is not installed (scripts/bootstrap installs it from PyPI)")
    outdir = REPORTS / name
    shutil.rmtree(outdir, ignore_errors=True)
    command = [kosoku, server.url, "-o", str(outdir)]
    for section in sections:
        command += ["-i", section]
    # kosoku exits 1 when any case fails; the verdicts are judged below, case by case.
    completed = subprocess.run(command, capture_output=True, text=True, timeout=RUN_SECONDS)
    index = outdir / "index.json"
    assert index.exists(), f"kosoku wrote no report (exit {completed.returncode}):\n{completed.stderr}"
    agents = json.loads(index.read_text())
    assert len(agents) == 1, f"one server under test expected, found {list(agents)}"
    (cases,) = agents.values()
    return cases


def case_report(server_cases_dir: Path, entry: dict) -> dict:
    return json.loads((server_cases_dir / entry["reportfile"]).read_text())


def tally(cases: dict[str, dict]) -> str:
    counts = Counter(entry["behavior"] for entry in cases.values())
    return ", ".join(f"{verdict} {count}" for verdict, count in sorted(counts.items()))


def test_framing_conformance(server: EchoServer):
    """T8 and T10: sections 1-7, 9, 10 pass but for the exceptions listed above."""
    cases = run_kosoku(server, "framing", FRAMING_SECTIONS)
    print(f"\nAutobahn sections 1-7, 9, 10: {len(cases)} cases: {tally(cases)}", file=sys.stderr)
    assert len(cases) == 301, f"the selection ran {len(cases)} cases, not Autobahn's 301"

    problems = []
    for case_id in sorted(cases, key=case_key):
        entry = cases[case_id]
        behavior, close, code = entry["behavior"], entry["behaviorClose"], entry["remoteCloseCode"]
        if case_id in LWS_PING_EXCEPTIONS:
            continue
        if case_id in OVER_CAP:
            report = case_report(REPORTS / "framing", entry)
            refused = code == MESSAGE_TOO_BIG or (
                code is None and not report["droppedByMe"] and not report["failedByMe"]
            )
            if behavior in PASSING or not refused:
                problems.append(f"{case_id} (over the cap): {behavior}/{close}, close code {code}")
            continue
        if behavior not in PASSING or close not in PASSING_CLOSE:
            problems.append(f"{case_id}: {behavior}/{close}, close code {code}")
    assert not problems, "cases that did not pass:\n" + "\n".join(problems)

    # T10: every UTF-8 case is exactly OK (75 of them fail with validation off).
    utf8 = {case_id: entry for case_id, entry in cases.items() if case_id.startswith("6.")}
    assert len(utf8) == 145
    assert all(entry["behavior"] == "OK" for entry in utf8.values()), tally(utf8)
    # Messages at the cap itself (64 KiB, 9.1.1 and 9.2.1) are echoed.
    assert cases["9.1.1"]["behavior"] == "OK" and cases["9.2.1"]["behavior"] == "OK"


def test_compression_is_never_negotiated(server: EchoServer):
    """T9: every permessage-deflate case is UNIMPLEMENTED; no handshake accepts the extension."""
    cases = run_kosoku(server, "compression", COMPRESSION_SECTIONS)
    print(f"\nAutobahn sections 12, 13: {len(cases)} cases: {tally(cases)}", file=sys.stderr)
    assert len(cases) == 216, f"the selection ran {len(cases)} cases, not Autobahn's 216"
    problems = []
    for case_id in sorted(cases, key=case_key):
        entry = cases[case_id]
        report = case_report(REPORTS / "compression", entry)
        if "sec-websocket-extensions" in (report.get("httpResponse") or "").lower():
            problems.append(f"{case_id}: the server answered with an extension")
        if entry["behavior"] == "UNIMPLEMENTED":
            continue
        if case_id in KOSOKU_HANDSHAKE_ERRORS and entry["behavior"] == "ERROR" and "handshake" in report["result"]:
            continue
        problems.append(f"{case_id}: {entry['behavior']} ({report['result']})")
    assert not problems, "cases that did not pass:\n" + "\n".join(problems)


# ---- Raw probe ---------------------------------------------------------------------------------


def _handshake(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=PROBE_SECONDS)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {ECHO_PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, f"the server closed during the handshake: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _send_frame(sock: socket.socket, opcode: int, payload: bytes):
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    assert len(payload) < 126
    sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    def exactly(count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = sock.recv(count - len(data))
            assert chunk, "the server dropped the connection without a close frame"
            data += chunk
        return data

    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", exactly(2))
    elif length == 127:
        (length,) = struct.unpack("!Q", exactly(8))
    return first & 0x0F, exactly(length)


def test_invalid_utf8_text_frame_closes_1007(server: EchoServer):
    """T10's raw probe: valid UTF-8 is echoed; a text frame of invalid UTF-8 gets close 1007."""
    with contextlib.closing(_handshake(server.port)) as sock:
        _send_frame(sock, 0x1, "κόσμε".encode())
        assert _read_frame(sock) == (0x1, "κόσμε".encode())
        _send_frame(sock, 0x1, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80")
        opcode, payload = _read_frame(sock)
        assert opcode == 0x8, f"expected a close frame, got opcode {opcode}"
        (code,) = struct.unpack("!H", payload[:2])
        assert code == 1007, f"close code {code} ({payload[2:]!r})"

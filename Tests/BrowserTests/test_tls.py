"""Optional TLS: `footlight-demo --tls-certificate … --tls-key …` serves https:// and wss://
through libwebsockets. The certificate is made here, self-signed for 127.0.0.1, by openssl.

Two independent clients: Python's ssl module, which verifies the server against that
certificate (so the handshake proves the server presents it), speaking HTTP and a raw
WebSocket upgrade; and Chromium, which loads the kiosk over https and joins over wss.
"""

import base64
import json
import os
import re
import socket
import ssl
import struct
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import WAIT_MS, _running_server


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory, certificate):
    cert, key = certificate
    with _running_server(tmp_path_factory, "tls", "--app", "auction", "--tls-certificate", str(cert),
                         "--tls-key", str(key), scheme="https") as server:
        yield server


def verified_context(cert) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = True
    return context


def tls_socket(server, cert) -> ssl.SSLSocket:
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT_MS / 1000)
    return verified_context(cert).wrap_socket(raw, server_hostname="127.0.0.1")


def read_until(sock, marker: bytes, limit: int = 1 << 20) -> bytes:
    data = b""
    while marker not in data and len(data) < limit:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_https_serves_the_page_with_the_configured_certificate(tls_server, certificate):
    cert, _ = certificate
    with tls_socket(tls_server, cert) as sock:
        assert sock.version() in ("TLSv1.2", "TLSv1.3")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        response = read_until(sock, b"</html>")
    assert response.startswith(b"HTTP/1.1 200"), response[:200]
    assert b"Footlight Auctions" in response


def test_plain_http_to_the_tls_port_gets_no_page(tls_server):
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=WAIT_MS / 1000) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            response = read_until(sock, b"\r\n\r\n", limit=4096)
        except (ConnectionResetError, TimeoutError, socket.timeout):
            response = b""
    assert not response.startswith(b"HTTP/1.1 200"), response[:200]


def test_wss_joins_a_session(tls_server, certificate):
    cert, _ = certificate
    key = base64.b64encode(os.urandom(16)).decode()
    with tls_socket(tls_server, cert) as sock:
        sock.sendall(
            (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{tls_server.port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
             f"Sec-WebSocket-Protocol: footlight.v1\r\nOrigin: https://127.0.0.1:{tls_server.port}\r\n\r\n").encode())
        head = read_until(sock, b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head[:300]
        rest = head.split(b"\r\n\r\n", 1)[1]
        payload = json.dumps({"t": "join", "v": 1}).encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        data = rest + read_until(sock, b'"joined"')
    # The first server frame is the joined message.
    assert data[0] == 0x81, data[:20]
    length = data[1] & 0x7F
    offset = 2
    if length == 126:
        length, offset = struct.unpack(">H", data[2:4])[0], 4
    message = json.loads(data[offset:offset + length])
    assert message["t"] == "joined" and message["resumed"] is False and re.fullmatch(r"\S+", message["token"])


def test_the_kiosk_over_https_and_wss(browser, tls_server):
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        errors = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.goto(tls_server.url + "/lots/lot-3", timeout=WAIT_MS)
        page.wait_for_function(
            "() => window.footlight && window.footlight.state().joined", timeout=WAIT_MS)
        expect(page.get_by_role("heading", name="Portrait of a Clockmaker")).to_be_visible()
        assert page.evaluate("() => location.protocol") == "https:"
        assert errors == []
    finally:
        context.close()

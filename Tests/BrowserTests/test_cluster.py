"""The cluster of scripts/cluster in a real browser: redis-server, two footlight-demo nodes
and nginx, all on loopback ports of the test's own. A bid placed on one node reaches a
visitor on the other, and when a node is killed its visitors' pages move through nginx to
the other node, which rebuilds their sessions: still signed in, at the page they showed, with
what they had typed."""

import contextlib
import os
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import REPO, _die_with_parent, _server_binary
from test_kiosk import listings, lot_page, place_minimum_bid, sign_in_as_ada

READY_SECONDS = 60  # scripts/cluster runs bootstrap (quick when all is installed) and starts four processes


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    process: subprocess.Popen
    url: str
    nodes: dict[int, int]  # port → pid
    lines: list[str]
    log: Path  # what the script wrote to stderr


@pytest.fixture
def cluster(tmp_path):
    port = _free_port()
    env = dict(os.environ, FOOTLIGHT_DEMO_BIN=str(_server_binary()), FOOTLIGHT_CLUSTER_DATA=str(tmp_path / "data"))
    log = tmp_path / "cluster.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            [str(REPO / "scripts" / "cluster"), "--port", str(port), "--nodes", "2"], cwd=REPO, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, text=True, preexec_fn=_die_with_parent)
    lines: list[str] = []
    ready = threading.Event()

    def read_stdout():
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("cluster ready on "):
                ready.set()
        ready.set()

    threading.Thread(target=read_stdout, daemon=True).start()
    ready.wait(READY_SECONDS)
    try:
        assert lines and lines[-1] == f"cluster ready on http://127.0.0.1:{port}", \
            f"{lines}\n{log.read_text(errors='replace')[-2000:]}"
        nodes = {}
        for line in lines[:-1]:
            match = re.fullmatch(r"node (\d+) pid (\d+) port (\d+)", line)
            assert match, line
            nodes[int(match.group(3))] = int(match.group(2))
        assert len(nodes) == 2
        yield Cluster(process, f"http://127.0.0.1:{port}", nodes, lines, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _alive(pid: int) -> bool:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 0)
        return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    return False


def node_of(app) -> int:
    """The port of the node nginx sends this visitor to (its X-Footlight-Node header)."""
    upstream = app.page.evaluate("fetch('/', {cache: 'no-store'}).then((r) => r.headers.get('x-footlight-node'))")
    return int(upstream.rsplit(":", 1)[1])


def test_the_config_hashes_visitors_over_every_node():
    output = subprocess.run(
        [str(REPO / "scripts" / "cluster"), "--print-config", "--nodes", "3", "--port", "9123"], cwd=REPO,
        capture_output=True, text=True, timeout=30, check=True).stdout
    assert "hash $cookie_footlight_visitor consistent;" in output
    assert len(re.findall(r"server 127\.0\.0\.1:\d+ max_fails=1", output)) == 3
    assert "listen 127.0.0.1:9123;" in output
    assert "proxy_set_header Upgrade $http_upgrade;" in output
    refused = subprocess.run([str(REPO / "scripts" / "cluster"), "--nodes", "0"], cwd=REPO, capture_output=True,
                             text=True, timeout=30)
    assert refused.returncode == 2 and "--nodes must be 1 to 16" in refused.stderr


def test_a_bid_reaches_the_other_node_and_a_dead_nodes_visitors_move(cluster, open_app):
    # Visitors land on nodes by their cookie: open pages until each node has one.
    apps = {}
    opened = []
    for _ in range(12):
        app = open_app(base=cluster.url, path="/lots/lot-1", root_stages=("listings",))
        opened.append(app)
        apps.setdefault(node_of(app), app)
        if len(apps) == 2:
            break
    assert len(apps) == 2, "twelve visitors all landed on one node"
    (port_a, bidder), (port_b, watcher) = sorted(apps.items())

    bidder.goto("/")
    sign_in_as_ada(bidder)
    bidder.goto("/lots/lot-1")
    watcher_bids = lot_page(watcher).locator(".lot-count")
    before = watcher_bids.inner_text()
    place_minimum_bid(bidder)
    expect(watcher_bids).not_to_have_text(before)
    expect(watcher_bids).to_have_text(lot_page(bidder).locator(".lot-count").inner_text())
    watcher.screenshot("cluster-bid-from-the-other-node")

    # Node A dies: its visitor's page reconnects through nginx to node B, signed in, on the lot,
    # the amount typed. Node B has never heard of the sessions of node A's pages: it rebuilds
    # them from what the pages show. (Every page opened loses its server at the end, when the
    # cluster stops.)
    for app in opened:
        app.allow_errors(r"502|WebSocket|ERR_")
    amount = lot_page(bidder).get_by_label("Your bid")
    amount.press_sequentially("98765", delay=80)
    bidder.wait_for("(s) => s.unacknowledged === 0 && Object.values(s.documents).some((d) => d.amount === '98765')")
    token = bidder.page.evaluate("window.footlight.state().token")
    os.kill(cluster.nodes[port_a], signal.SIGKILL)
    started = time.monotonic()
    expect(lot_page(bidder).get_by_role("button", name="Place bid")).to_be_visible(timeout=3_000)
    bidder.page.wait_for_function(
        f"window.footlight.state().joined && window.footlight.state().token !== {token!r}", timeout=3_000)
    moved_after = time.monotonic() - started
    expect(amount).to_have_value("98765")
    assert node_of(bidder) == port_b
    assert re.search(r"/lots/lot-1$", bidder.page.url)
    bidder.screenshot("cluster-moved-to-the-other-node")
    print(f"moved to the other node {moved_after:.2f} s after the kill")

    # The cluster goes on without node A, and says so; stopping it stops everything it started.
    assert cluster.process.poll() is None
    reported = re.compile(rf"node \d \(pid {cluster.nodes[port_a]}\) exited")
    deadline = time.monotonic() + 5
    while not reported.search(cluster.log.read_text(errors="replace")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reported.search(cluster.log.read_text(errors="replace"))
    cluster.process.send_signal(signal.SIGTERM)
    cluster.process.wait(20)
    assert not any(_alive(pid) for pid in cluster.nodes.values())

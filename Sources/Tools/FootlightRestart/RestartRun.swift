import BenchSupport
import FootlightTesting
import Foundation

/// One run of the benchmark: a fresh server and data directory; N pages open and set a
/// recoverable value; the server is killed with SIGKILL and started again on the same
/// port and data; every page resumes at once and is rebuilt from what it shows; then,
/// on the restarted server, N fresh joins at once, the baseline.
///
/// Each run has a server process and data directory of its own (rather than killing
/// and restarting one server run after run) so runs are alike: none starts with the
/// sessions, retained sessions or grown database another run left behind.
struct RestartRun {
    let setup: DemoServer.Setup
    let sessions: Int
    let number: Int

    /// How many pages open at once while the sessions are set up.
    private static let openWidth = 100
    /// The bound on every wait for the server or a client.
    private static let timeout: Duration = .seconds(60)

    func measure() async throws -> RunResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-restart-\(UUID())")
        let data = directory.appendingPathComponent("data").path
        let logPath = directory.appendingPathComponent("server.log").path
        ExitCleanup.add(directory: directory.path)
        defer { ExitCleanup.remove(directory: directory.path) }
        let log: FileHandle
        do {
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
                throw RestartError("could not create \(logPath)")
            }
            log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        } catch {
            throw RestartError("could not prepare \(directory.path): \(error)")
        }
        defer { try? log.close() }
        do {
            return try await measure(data: data, log: log)
        } catch {
            throw RestartError("run \(number): \(error)\(Self.tail(of: logPath))")
        }
    }

    private func measure(data: String, log: FileHandle) async throws -> RunResult {
        let first = try DemoServer(setup, dataDirectory: data, port: 0, log: log)
        defer { first.stop() }
        let port = first.port

        // The sessions, each with its recoverable value acknowledged.
        var start = ContinuousClock.now
        let opened = await concurrentMap(sessions, width: Self.openWidth) { index in
            await capture { try await Page.open(Page.Kind(index: index), port: port, timeout: Self.timeout) }
        }
        let pages = try opened.map { result in
            do {
                return try result.get()
            } catch {
                throw RestartError("a page could not be set up before the kill: \(error)")
            }
        }
        note("\(sessions) pages open, their values acknowledged, in \(Format.time(ContinuousClock.now - start))")
        let restores = pages.map(\.restore)
        let templates = pages.map(\.templates)

        start = .now
        try first.sigkill()
        try await Self.waitUntilClosed(pages.map(\.client), "to see the killed server's socket end")
        note("server killed; every page saw its socket end after \(Format.time(ContinuousClock.now - start))")

        let restarted = try DemoServer(setup, dataDirectory: data, port: port, log: log)
        defer { restarted.stop() }
        let back = restarted.readyAt
        note("server back on port \(port) \(Format.time(back - start)) after the kill; resuming")
        let rebuildCPU = PhaseCPU.Start(serverPID: restarted.pid)
        let resumed = await concurrentMap(sessions, width: sessions) { index in
            await capture {
                try await pages[index].client.resume(attempts: 3, restoring: restores[index], timeout: Self.timeout)
                return ContinuousClock.now
            }
        }
        let rebuildUse = rebuildCPU.finish()
        var problems = ProblemCounts()
        var rebuildTimes: [Duration] = []
        for (index, result) in resumed.enumerated() {
            switch result {
            case .success(let returned):
                if let problem = pages[index].problem(showedBefore: templates[index]) {
                    problems.add(problem)
                } else {
                    rebuildTimes.append(returned - back)
                }
            case .failure(let error):
                problems.add(SessionProblem(kind: "the resume failed", example: "\(error)"))
            }
        }
        let lastRebuilt = rebuildTimes.max() ?? .zero
        note("\(rebuildTimes.count) of \(sessions) sessions rebuilt whole, the last \(Format.time(lastRebuilt)) after")

        // The baseline, on the restarted server: the rebuilt pages close first, so the
        // joins find no more live connections than the rebuilds did.
        for page in pages { page.client.close() }
        try await Self.waitUntilClosed(pages.map(\.client), "to close")
        start = .now
        let joinCPU = PhaseCPU.Start(serverPID: restarted.pid)
        let joined = await concurrentMap(sessions, width: sessions) { index in
            await capture {
                let client = try await TestClient.connect(
                    port: port, path: Page.Kind(index: index).path, timeout: Self.timeout)
                return (client, ContinuousClock.now)
            }
        }
        let joinUse = joinCPU.finish()
        var freshFailures = ProblemCounts()
        var joinTimes: [Duration] = []
        for result in joined {
            switch result {
            case .success(let (client, at)):
                joinTimes.append(at - start)
                client.close()
            case .failure(let error):
                freshFailures.add(SessionProblem(kind: "the fresh join failed", example: "\(error)"))
            }
        }
        let lastJoined = joinTimes.max() ?? .zero
        note("\(joinTimes.count) fresh joins, the last \(Format.time(lastJoined)) after they started")

        return RunResult(
            sessions: sessions, rebuildTimes: rebuildTimes, rebuildCPU: rebuildUse, problems: problems,
            joinTimes: joinTimes, joinCPU: joinUse, freshFailures: freshFailures)
    }

    /// Says how a phase went, on stderr.
    private func note(_ text: String) {
        FileHandle.standardError.write(Data("restart: run \(number): \(text)\n".utf8))
    }

    /// Waits until each client's socket has ended, all at once, each for at most the timeout.
    private static func waitUntilClosed(_ clients: [TestClient], _ what: String) async throws {
        let results = await concurrentMap(clients.count, width: clients.count) { index in
            await capture { try await clients[index].wait("the socket to end", timeout: timeout) { !$0.isOpen } }
        }
        let failed = results.filter { if case .failure = $0 { true } else { false } }
        guard failed.isEmpty else { throw RestartError("\(failed.count) of \(clients.count) pages failed \(what)") }
    }

    /// The last 20 lines of the server's log, as lines to add to an error.
    private static func tail(of path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty else { return "" }
        return "\nthe server's log, last 20 lines:\n" + text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}

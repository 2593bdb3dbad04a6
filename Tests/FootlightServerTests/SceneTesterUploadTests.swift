import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// Uploads in process: `SceneTester.upload` sends a file through the server's own upload
/// code (tickets, limits, the bytes checked against the declared type), with no socket.
@Suite struct SceneTesterUploadTests {
    /// "uploads": the probe's log of upload events; a finished file is moved to
    /// `keepIn` (when given) in the Director's turn, as an app that keeps it does.
    struct ProbeScene: Scene {
        var limits = UploadLimits()
        var keepIn: String?
        let paths = Locked<[String]>([])
        /// The type of each finished file.
        let types = Locked<[String]>([])

        func makeStage(context: Context) -> Stage {
            let (input, events) = (PassthroughSubject<UploadEvent, Never>(), PassthroughSubject<UploadEvent, Never>())
            let stage = UploadProbe.stage(limits: limits, events: events, input: input)
            let (paths, types, keepIn) = (paths, types, keepIn)
            // Logged (the file read) first, then moved.
            stage.keep(
                input.sink { event in
                    events.send(event)
                    guard case .finished(let file) = event else { return }
                    paths.withLock { $0.append(file.path) }
                    types.withLock { $0.append(file.type) }
                    if let keepIn { _ = rename(file.path, "\(keepIn)/\(file.name)") }
                })
            return stage
        }
    }

    private func gone(_ path: String) async throws -> Bool {
        for _ in 0..<500 where FileManager.default.fileExists(atPath: path) {
            try await Task.sleep(for: .milliseconds(10))
        }
        return !FileManager.default.fileExists(atPath: path)
    }

    @Test("A file goes up a chunk at a time: started, progress after each, finished with its bytes; then removed")
    func whole() async throws {
        let scene = ProbeScene()
        let tester = SceneTester(scene)
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(
            tester.upload("file", to: "uploads", name: "photo.raw", type: "application/octet-stream", bytes: body)
                == 204)
        let log: [JSON] = [
            "started photo.raw 300000", "progress 65536/300000", "progress 131072/300000", "progress 196608/300000",
            "progress 262144/300000", .string("finished photo.raw 300000 \(UploadProbe.hash(body))"),
        ]
        tester.expect("uploads", ["log": .array(log)])
        // One patch per step, as the page would see them.
        tester.expectPatch(
            "uploads",
            log.enumerated().map { ["op": "add", "path": .string("/log/\($0.offset)"), "value": $0.element] })
        let path = try #require(scene.paths.withLock { $0.first })
        #expect(try await gone(path), "the file is removed after the Director's turn")
        tester.finish()
    }

    @Test("A file the Director moves in its turn stays where it put it")
    func kept() throws {
        let folder = NSTemporaryDirectory() + "scene-uploads-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tester = SceneTester(ProbeScene(keepIn: folder))
        let body = [UInt8](repeating: 42, count: 1_000)
        #expect(
            tester.upload("file", to: "uploads", name: "kept.bin", type: "application/octet-stream", bytes: body) == 204
        )
        tester.expect(
            "uploads",
            ["log": ["started kept.bin 1000", .string("finished kept.bin 1000 \(UploadProbe.hash(body))")]])
        #expect(FileManager.default.contents(atPath: "\(folder)/kept.bin") == Data(body))
        tester.finish()
    }

    @Test("Refused before any byte (size, type, count): no address, the binding told why")
    func refusedAtOnce() {
        let tester = SceneTester(ProbeScene(limits: UploadLimits(maximumBytes: 100, types: ["image/*"])))
        #expect(
            tester.upload(
                "file", to: "uploads", name: "big.png", type: "image/png", bytes: .init(repeating: 0, count: 101))
                == nil)
        tester.expect("uploads", ["log": ["failed too-large"]])
        #expect(tester.upload("file", to: "uploads", name: "notes.txt", type: "text/plain", bytes: [1, 2, 3]) == nil)
        tester.expect("uploads", ["log": ["failed too-large", "failed type-not-accepted"]])
        let two: JSON = [
            UploadProbe.describe("a.png", size: 1, type: "image/png"),
            UploadProbe.describe("b.png", size: 1, type: "image/png"),
        ]
        tester.send("file", to: "uploads", value: two)
        tester.expect("uploads", ["log": ["failed too-large", "failed type-not-accepted", "failed too-many-files"]])
        #expect(tester.send("file", to: "uploads", value: "a.png") != nil, "a value that describes no file is refused")
        tester.expectCommands([])
        tester.finish()
    }

    @Test("Bytes of a type not accepted, whatever the name says: 415, and the binding told")
    func wrongBytes() {
        let tester = SceneTester(ProbeScene(limits: UploadLimits(types: ["image/png", "image/jpeg"])))
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 94)
        #expect(tester.upload("file", to: "uploads", name: "a.png", type: "image/png", bytes: gif) == 415)
        tester.expect("uploads", ["log": ["started a.png 100", "failed type-not-accepted"]])
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        #expect(tester.upload("file", to: "uploads", name: "b.png", type: "image/png", bytes: text) == 415)
        tester.expect(
            "uploads",
            ["log": ["started a.png 100", "failed type-not-accepted", "started b.png 100", "failed type-not-accepted"]])
        tester.finish()
    }

    @Test("A GIF named .png, where GIFs are accepted: taken by its bytes, as image/gif")
    func bytesDecide() {
        let scene = ProbeScene(limits: UploadLimits(types: ["image/png", "image/gif"]))
        let tester = SceneTester(scene)
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 94)
        #expect(tester.upload("file", to: "uploads", name: "a.png", type: "image/png", bytes: gif) == 204)
        tester.expect(
            "uploads", ["log": ["started a.png 100", .string("finished a.png 100 \(UploadProbe.hash(gif))")]])
        #expect(scene.types.withLock { $0 } == ["image/gif"])
        tester.finish()
    }
}

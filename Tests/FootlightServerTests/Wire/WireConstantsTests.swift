import Footlight
import FootlightJSON
import Foundation
import Testing

@testable import FootlightServer

/// The wire as the runtime spells it: the names in the wire block of `constants.js`
/// (`const wire = '…' + '…';`), and its `VERSION`.
struct RuntimeConstants {
    let names: [String]
    let text: String

    /// Reads the runtime's `constants.js` in the package's sources (the file the server
    /// ships as a resource once built).
    static func shipped() throws -> RuntimeConstants {
        try RuntimeConstants(text: source("constants.js"))
    }

    /// The text of the runtime's file `name` in the package's sources.
    static func source(_ name: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FootlightServer/Runtime/\(name)")
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// The runtime's files that name `K.<NAME>` (its wire name `name`, upper-cased), but
    /// for `constants.js`, which defines the names.
    static func files(naming name: String) throws -> [String] {
        let constant = try Regex(#"\bK\."# + name.uppercased() + #"\b"#)
        return try StaticAssets.runtimeFiles.filter { $0 != "constants.js" }.filter {
            try source($0).contains(constant)
        }
    }

    init(text: String) throws {
        guard let start = text.range(of: "const wire ="),
            let end = text[start.upperBound...].firstIndex(of: ";")
        else {
            throw ConstantsError(description: "constants.js has no `const wire = '…';` block")
        }
        let literals = text[start.upperBound..<end].split(separator: "'", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        names = literals.joined().split(separator: " ").map(String.init)
        self.text = text
    }

    /// The value of the constant `name` (`NAME: 'text'` or `NAME: 12`) as written.
    func constant(_ name: String) -> String? {
        guard let match = text.firstMatch(of: try! Regex(#"\b"# + name + #": (?:'([^']*)'|(\d+))"#)) else {
            return nil
        }
        return (match.output[1].substring ?? match.output[2].substring).map(String.init)
    }

    struct ConstantsError: Error, CustomStringConvertible {
        let description: String
    }
}

@Suite("The wire is spelled once in Swift and once in the runtime, and the two agree")
struct WireConstantsTests {
    /// What differs between the table and the runtime's wire names, one line per name.
    static func drift(_ runtime: [String]) -> [String] {
        let named = Set(runtime)
        let missing = Wire.names.subtracting(named).sorted().map {
            "constants.js lacks the wire name \"\($0)\" that the Swift table (Wire) defines: add it to `const wire`"
        }
        let extra = runtime.filter { !Wire.names.contains($0) }.map {
            "constants.js has the wire name \"\($0)\", which the Swift table (Wire) does not define"
        }
        return missing + extra
    }

    @Test("Every wire name of the Swift table is in constants.js, and every one there is in the table")
    func bothWays() throws {
        let runtime = try RuntimeConstants.shipped().names
        for line in Self.drift(runtime) { Issue.record(Comment(rawValue: line)) }
        #expect(Set(runtime).count == runtime.count, "constants.js names a wire constant twice")
    }

    @Test("The runtime speaks the server's protocol version and subprotocol, and names the back event alike")
    func version() throws {
        let runtime = try RuntimeConstants.shipped()
        #expect(runtime.constant("VERSION") == String(ClientMessage.version))
        #expect(runtime.constant("SUBPROTOCOL") == ServerConfiguration.subprotocol)
        #expect(runtime.constant("BACK") == Wire.backEvent)
    }

    @Test("A drifted name is reported by name, on both sides")
    func driftIsNamed() throws {
        let shipped = try RuntimeConstants.shipped().names
        let text = "const wire =\n '\(shipped.map { $0 == "seq" ? "seqs" : $0 }.joined(separator: " "))';\n"
        #expect(
            Self.drift(try RuntimeConstants(text: text).names) == [
                #"constants.js lacks the wire name "seq" that the Swift table (Wire) defines: add it to `const wire`"#,
                #"constants.js has the wire name "seqs", which the Swift table (Wire) does not define"#,
            ])
    }
    /// Server messages the page leaves to the socket: `pong` (any traffic proves the
    /// connection alive) and `bye` (the close code 1001 that follows says it).
    static let leftToTheSocket: Set<Wire.Server> = [.pong, .bye]

    @Test("The runtime handles every server message and sends every client message of the table")
    func runtimeSpeaksEveryType() throws {
        for type in Wire.Server.allCases {
            let files = try RuntimeConstants.files(naming: type.rawValue)
            if Self.leftToTheSocket.contains(type) {
                #expect(files == [], "the runtime handles \(type.rawValue) now (\(files)): take it off leftToTheSocket")
            } else {
                #expect(
                    files != [],
                    "no runtime file names K.\(type.rawValue.uppercased()): the page ignores the server's \(type.rawValue)"
                )
            }
        }
        for type in Wire.Client.allCases {
            #expect(
                try RuntimeConstants.files(naming: type.rawValue) != [],
                "no runtime file names K.\(type.rawValue.uppercased()): the page never sends \(type.rawValue)")
        }
    }

    @Test("A type the runtime does not name is found")
    func unhandledTypeIsFound() throws {
        #expect(try RuntimeConstants.files(naming: "patch") == ["runtime.js"])
        #expect(try RuntimeConstants.files(naming: "no-such-type") == [])
    }

    @Test("Every key the server writes is one its type lists, in the table's order, in samples and transcripts")
    func serverMessagesUseTheirKeys() throws {
        var messages = WireSamples.serverMessages.map(\.json)
        var types: Set<Wire.Server> = []
        for transcript in try Transcript.all() {
            for case .server(let message, _, _) in transcript.steps { messages.append(message) }
        }
        for message in messages {
            guard case .object(let members) = message, let type = members[.type]?.stringValue,
                let kind = Wire.Server(rawValue: type)
            else {
                Issue.record("\(message) has no type of the table")
                continue
            }
            types.insert(kind)
            let keys = members.keys.dropFirst().map { Wire.Key(rawValue: $0) }
            #expect(keys.allSatisfy { $0 != nil }, "\(type) writes a key the table lacks: \(members.keys)")
            let listed = kind.keys.filter { keys.contains($0) }
            #expect(keys.compactMap { $0 } == listed, "\(type) writes keys its type does not list, or in another order")
        }
        #expect(types == Set(Wire.Server.allCases), "types no sample or transcript shows")
    }

    @Test("Every key a transcript's client message holds is one its type lists")
    func clientMessagesUseTheirKeys() throws {
        for transcript in try Transcript.all() {
            for case .client(.object(let members)) in transcript.steps {
                let kind = members[.type]?.stringValue.flatMap(Wire.Client.init(rawValue:))
                let unlisted = members.keys.dropFirst().filter { key in
                    !(kind?.keys.contains { $0.rawValue == key } ?? false)
                }
                #expect(kind != nil && unlisted == [], "\(transcript): \(members.keys)")
            }
        }
    }

    @Test("Event options, client commands and placements use only the table's names")
    func nestedNamesAreInTheTable() throws {
        var keys: Set<String> = []
        func collect(_ json: JSON?) {
            if case .object(let members)? = json { keys.formUnion(members.keys) }
        }
        collect(WireSamples.allOptions.json)
        for command in WireSamples.commands { collect(command.json) }
        let known = Set(Wire.Key.allCases.map(\.rawValue))
        #expect(keys.subtracting(known).isEmpty, "names the table lacks: \(keys.subtracting(known).sorted())")
        for placement in [Placement.root, .push, .modal] { #expect(Wire.words.contains(placement.rawValue)) }
        #expect(WireSamples.allOptions.json?["commit"] == .string("blur") && Wire.words.contains("blur"))
    }
}

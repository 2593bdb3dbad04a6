import BenchSupport
import FootlightJSON
import Foundation

/// The `json` benchmark: diff time and patch size for two typical view updates, then
/// parse and serialise throughput of jansson (through FootlightJSON) against Foundation.
struct JSONSuite {
    let budget: Budget

    /// A failed sanity check: the benchmark would be measuring the wrong thing.
    struct CheckFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs every measurement, prints the tables, and returns the checksum of all runs.
    func run() throws -> Int {
        let large = Documents.auction(rows: 10_000)
        let small = Documents.auction(rows: 1_000)

        print("### JSON diff (FootlightJSON)\n")
        var diffs = MarkdownTable([
            ("Change", .left), ("Median", .right), ("Min", .right), ("Runs", .right), ("Ops", .left),
            ("Patch bytes", .right), ("Full replace bytes", .right), ("Patch / replace", .right),
        ])
        let oneField = try diffCase(
            "1 field in row 5,000 of 10,000", from: large, to: Documents.raisingBid(in: large, atRow: 4_999),
            expecting: { $0.count == 1 && $0.first?.path.description == "/\(Documents.listKey)/4999/bid" },
            into: &diffs)
        let reverse = try diffCase(
            "Reverse 1,000 rows", from: small, to: Documents.reversingLots(in: small),
            expecting: { $0.count == 999 && $0.allSatisfy { $0.name == "move" } },
            into: &diffs)
        print(diffs.text)
        let keyed = try KeyedCollectionCase(budget: budget).run(large)

        let codec = try codecTable(large)
        print()
        print(
            "Release build. Median and fastest of the timed runs after \(budget.warmupRuns) warm-up runs."
                + " Patch bytes: `patch.json` as compact JSON; full replace: the compact target document."
                + " MB = 10⁶ bytes of compact JSON text; ratio: FootlightJSON's throughput over"
                + " Foundation's at the median (runs alternate between the two).")
        return oneField &+ reverse &+ keyed &+ codec
    }

    /// Measures one diff, checks the patch (its operations satisfy `expecting`, and
    /// applying it to `source` gives `target`), adds a row to `table`, returns the checksum.
    private func diffCase(
        _ label: String, from source: JSON, to target: JSON,
        expecting: ([PatchOperation]) -> Bool, into table: inout MarkdownTable
    ) throws -> Int {
        let timing = try measure(budget) { JSONPatch.diff(from: source, to: target).operations.count }
        let patch = JSONPatch.diff(from: source, to: target)
        guard expecting(patch.operations) else {
            throw CheckFailed(description: "\(label): unexpected patch \(Self.summary(patch.operations))")
        }
        guard try patch.applied(to: source) == target else {
            throw CheckFailed(description: "\(label): the patch does not turn the source into the target")
        }
        let patchBytes = try patch.json.serializedBytes().count
        let replaceBytes = try target.serializedBytes().count
        table.append(
            label, Format.time(timing.median), Format.time(timing.min), String(timing.runs),
            Self.summary(patch.operations), Format.count(patchBytes), Format.count(replaceBytes),
            Format.percent(patchBytes, of: replaceBytes))
        return timing.checksum
    }

    /// Operation counts by name, e.g. `999 (999 move)`.
    private static func summary(_ operations: [PatchOperation]) -> String {
        var byName: [String: Int] = [:]
        for operation in operations { byName[operation.name, default: 0] += 1 }
        let parts = byName.sorted { $0.key < $1.key }.map { "\(Format.count($0.value)) \($0.key)" }
        return "\(Format.count(operations.count)) (\(parts.joined(separator: ", ")))"
    }

    /// Parse and serialise throughput on the text of `document`, FootlightJSON and
    /// Foundation side by side. Prints the table and returns the checksum.
    private func codecTable(_ document: JSON) throws -> Int {
        let bytes = try document.serializedBytes()
        let data = Data(bytes)
        let parsed = try JSON.parse(bytes)
        guard parsed == document else { throw CheckFailed(description: "parsing the document changed it") }
        let foundationObject = try JSONSerialization.jsonObject(with: data)

        let parse = try measure(
            budget,
            [
                { try Self.weight(JSON.parse(bytes)) },
                { try Self.weight(JSONSerialization.jsonObject(with: data)) },
            ])
        let write = try measure(
            budget,
            [
                { try parsed.serializedBytes().count },
                { try JSONSerialization.data(withJSONObject: foundationObject).count },
            ])

        print("\n### JSON parse and serialise, \(Format.megabytes(bytes.count)) document\n")
        var table = MarkdownTable([
            ("Operation", .left), ("FootlightJSON (jansson)", .right), ("Foundation JSONSerialization", .right),
            ("Ratio", .right),
        ])
        for (name, ours, theirs) in [
            ("Parse", parse[0], parse[1]), ("Serialise", write[0], write[1]),
        ] {
            table.append(
                name, Self.cell(ours, bytes: bytes.count), Self.cell(theirs, bytes: bytes.count),
                Format.ratio(ours.megabytesPerSecond(bytes.count) / theirs.megabytesPerSecond(bytes.count)))
        }
        print(table.text)
        return (parse + write).reduce(0) { $0 &+ $1.checksum }
    }

    /// `85.3 MB/s (14.4 ms, 18 runs)`: throughput and time at the median.
    private static func cell(_ timing: Timing, bytes: Int) -> String {
        "\(Format.throughput(timing.megabytesPerSecond(bytes))) (\(Format.time(timing.median)), \(timing.runs) runs)"
    }

    /// A number that depends on a parse result: the row count of the list.
    private static func weight(_ value: JSON) -> Int {
        value[Documents.listKey]?.arrayValue?.count ?? -1
    }

    /// The same for Foundation's parse result.
    private static func weight(_ value: Any) -> Int {
        ((value as? [String: Any])?[Documents.listKey] as? [Any])?.count ?? -1
    }
}

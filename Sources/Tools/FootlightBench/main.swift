// FootlightBench: benchmarks for Footlight, printed as Markdown tables.
//
//   FootlightBench [all | json ...] [--budget SECONDS]
//
// With no suite named, every suite runs. `--budget` is the time spent on the timed
// runs of each measurement (default 1.5 s; at least 5 runs are always made).

import Foundation

/// The suites by name, in the order `all` runs them.
let suites: [(name: String, summary: String)] = [
    ("json", "JSON diff patch sizes and times; parse/serialise throughput vs Foundation"),
    ("components", "1,000 components re-sorted, changed, shown and cleared, and their memory, against keyed rows"),
]

func usage() -> String {
    "usage: FootlightBench [all | \(suites.map(\.name).joined(separator: " | "))]... [--budget SECONDS]\n"
        + suites.map { "  \($0.name)\t\($0.summary)" }.joined(separator: "\n")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

var budget = Budget()
var selected: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help", "help":
        print(usage())
        exit(0)
    case "--budget":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else {
            fail("--budget needs a positive number of seconds\n" + usage())
        }
        budget.time = .seconds(value)
    case "all":
        selected += suites.map(\.name)
    case let name where suites.contains { $0.name == name }:
        selected.append(name)
    default:
        fail("unknown argument \"\(argument)\"\n" + usage())
    }
}
if selected.isEmpty { selected = suites.map(\.name) }

var checksum = 0
do {
    for name in selected {
        switch name {
        case "json": checksum &+= try JSONSuite(budget: budget).run()
        case "components": checksum &+= try ComponentSuite(budget: budget).run()
        default: fatalError("suite \(name) is listed but not wired up")
        }
        print()
    }
} catch {
    fail("FootlightBench: \(error)")
}
// Printed so the measured work has an observable result.
print("<!-- checksum \(checksum) -->")

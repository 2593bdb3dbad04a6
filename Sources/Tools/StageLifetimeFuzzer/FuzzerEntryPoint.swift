// libFuzzer target for the lifetime of stages: bytes → a visit to a kiosk-like page
// whose components come and go. Built only by `scripts/fuzz`: `swift build
// --sanitize=fuzzer` compiles executables as libraries and links libFuzzer's `main`,
// which calls this function for every input.

/// Runs one input; a stage that outlives its page traps, and libFuzzer saves the input
/// (as it does a leak, which its LeakSanitizer finds after the input).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    PageVisit.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

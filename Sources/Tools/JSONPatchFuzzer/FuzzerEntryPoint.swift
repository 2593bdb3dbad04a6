// libFuzzer target for JSON Patch apply and diff. Built only
// by `scripts/fuzz`: `swift build --sanitize=fuzzer` compiles executables as libraries
// and links libFuzzer's `main`, which calls this function for every input.

/// Checks one input; a violated property traps, and libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    JSONPatchProperties.check(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

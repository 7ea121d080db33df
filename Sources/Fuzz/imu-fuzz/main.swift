#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// imu-fuzz: fuzz targets for the recording reader, calibration files and walker profiles
/// (docs/testing-fuzz.md).
///
/// - Built with `make fuzz` (`-sanitize=fuzzer`): libFuzzer drives `LLVMFuzzerTestOneInput` with
///   the target named by `IMU_FUZZ_TARGET`; crashes are written as files (`-artifact_prefix`).
/// - Built normally: `imu-fuzz TARGET FILE…` runs each file through the target once, which is how
///   the kept crash inputs (Tests/Fuzz/regressions) stay regression tests.

#if FUZZING
/// libFuzzer's entry for programs with their own main (the linker may keep either main).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
#else
let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first, let target = FuzzTarget(rawValue: first) else {
    complain("usage: imu-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE...")
    exit(2)
}
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else {
        complain("imu-fuzz: cannot read \(path)")
        exit(2)
    }
    data.withUnsafeBytes { target.run($0) }
}
print("imu-fuzz: \(arguments.count - 1) inputs through \(target.rawValue), no crash")
#endif

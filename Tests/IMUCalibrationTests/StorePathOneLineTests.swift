import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import IMUCalibration

/// A saved file's path comes from XDG_CONFIG_HOME, which may hold a newline: ToolMain escapes a
/// message for the terminal but keeps its newlines, so a path "/tmp/a\n  fix: …" printed a fake
/// fix line of its own. The path is shown escaped on one line (`escapedOnOneLine`, as ConfigError).
@Suite struct StorePathOneLineTests {
    static let config = "/tmp/a\n  fix: rm -rf ~"

    @Test(arguments: [(EACCES, "read"), (EACCES, "write"), (EACCES, "remove"), (EISDIR, "read"), (ENOSPC, "write"),
                      (EFBIG, "read"), (EIO, "write"), (EIO, "read")])
    func calibrationStoreErrorsNameThePathOnOneLine(errorNumber: Int32, operation: String) {
        for file in ["/profile.json", "/calibration/i2c-1-0x68.json"] {
            let error = CalibrationStoreError.io(path: Self.config + "/imukit" + file, operation: operation, errno: errorNumber)
            let text = error.description + "\n" + (error.fix ?? "")
            #expect(!error.description.contains("\n") && error.fix?.contains("\n") != true, "\(text)")
            #expect(error.description.contains("/tmp/a\\n  fix: rm -rf ~/imukit"), "\(text)")
        }
        let device = CalibrationStoreError.notARegularFile(path: Self.config + "/imukit/profile.json", kind: "a character device")
        #expect(!device.description.contains("\n") && device.fix?.contains("\n") != true, "\(device.description) \(device.fix ?? "")")
    }

    @Test func walkerProfileErrorNamesThePathOnOneLine() {
        let error = WalkerProfileError(path: Self.config + "/imukit/profile.json", reason: "not a JSON object")
        #expect(error.description == "/tmp/a\\n  fix: rm -rf ~/imukit/profile.json: not a walker profile: not a JSON object")
    }
}

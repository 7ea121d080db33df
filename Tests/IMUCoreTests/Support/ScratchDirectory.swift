import Foundation

/// A fresh empty directory under the temporary directory, named `prefix-UUID`, for one test.
func scratchDirectory(_ prefix: String = "imukit-core") throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

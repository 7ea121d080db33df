import Foundation
import OffPool
import Testing

/// Every input `make fuzz` ever crashed on (Tests/Fuzz/regressions/TARGET) and every seed
/// (Tests/Fuzz/corpus/TARGET), run once through the same target code by the normally built
/// `imu-fuzz`: a crash there fails this test.
@Suite(.offPool) struct FuzzRegressionTests {
    @Test(arguments: ["recording", "calibration", "profile"])
    func keptInputsRunWithoutACrash(target: String) throws {
        var files: [String] = []
        for folder in ["Tests/Fuzz/regressions/", "Tests/Fuzz/corpus/"] {
            let dir = ToolRunner.packageRoot.appendingPathComponent(folder + target).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { dir + "/" + $0 }
        }
        #expect(!files.isEmpty, "no seeds for \(target)")
        let r = try ToolRunner.run("imu-fuzz", [target] + files)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("\(files.count) inputs through \(target), no crash"), "stdout: \(r.stdout)")
    }
}

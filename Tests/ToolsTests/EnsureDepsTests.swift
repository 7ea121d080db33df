import Foundation
import OffPool
import Testing

/// scripts/ensure-deps.sh (behind every make target): installs missing packages as root or with
/// sudo; otherwise prints the exact apt-get line and stops. Driven with stand-in commands on PATH.
@Suite(.offPool) struct EnsureDepsTests {
    /// A directory of fake `dpkg-query` (every package missing), `id` (uid 1000) and `sudo` (refuses),
    /// plus `swift` so the toolchain check passes.
    func fakeTools() throws -> String {
        let dir = try ToolRunner.temporaryFile("placeholder", "")
        let bin = URL(fileURLWithPath: dir).deletingLastPathComponent().appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let scripts = [
            "dpkg-query": "#!/bin/sh\nexit 1\n",
            "id": "#!/bin/sh\necho 1000\n",
            "sudo": "#!/bin/sh\nexit 1\n",
            "swift": "#!/bin/sh\nexit 0\n",
            "apt-get": "#!/bin/sh\necho SHOULD-NOT-RUN >&2\nexit 99\n",
        ]
        for (name, body) in scripts {
            let path = bin + "/" + name
            try body.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        return bin
    }

    @Test func withoutRootOrSudoItPrintsTheExactLineAndStops() throws {
        let bin = try fakeTools()
        let (status, text) = try ToolRunner.ensureDeps(fakeBin: bin)
        #expect(status == 1)
        #expect(text.contains("sudo apt-get install -y --no-install-recommends libiio-dev libi2c-dev pkg-config"), "stderr: \(text)")
        #expect(!text.contains("SHOULD-NOT-RUN"))
    }
}

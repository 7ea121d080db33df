import Foundation
import OffPool
import Testing

/// An I²C spec naming one address twice, refused before anything is opened (exit 2).
@Suite(.offPool) struct I2CDuplicateAddressTests {
    /// `i2c:1@0x68,0x68` opened one chip twice; it is refused as the spec is read, by the tools and
    /// by the daemon's config, naming the address.
    @Test func oneI2CAddressTwiceIsRefusedAsTheSpecIsRead() throws {
        for (tool, arguments) in [("imu-info", ["--source", "i2c:1@0x68,0x68"]), ("imu-steps", ["--source", "i2c:/dev/i2c-7@0x68,0x76,0x68"])] {
            let r = try ToolRunner.run(tool, arguments)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("names address 0x68 twice"), "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("fix: name each chip once"), "\(tool): \(r.stderr)")
        }
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "source = i2c:1@0x76,0x76\n".write(toFile: dir + "/stepd.conf", atomically: true, encoding: .utf8)
        let daemon = try ToolRunner.run("imu-stepd", ["--config", dir + "/stepd.conf"], timeout: 60)
        #expect(daemon.status == 2 && daemon.stderr.contains("stepd.conf:1: source = 'i2c:1@0x76,0x76': 'i2c:1@0x76,0x76' names address 0x76 twice"),
                "\(daemon.stderr)")
    }
}

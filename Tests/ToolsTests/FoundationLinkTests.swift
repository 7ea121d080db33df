import Foundation
import OffPool
import Testing

/// The tools whose code needs only FoundationEssentials link neither full Foundation, its
/// internationalisation part nor its ICU (issue #11 part 5, docs/memory.md): their NEEDED
/// libraries, as the loader reads them (`readelf -d`), in the build beside the tests (Swift
/// runtime as shared libraries, so Foundation would be listed by name).
@Suite(.offPool) struct FoundationLinkTests {
    static let essentialsOnly = ["imu-steps", "imu-info", "imu-record", "imu-calibrate"]

    @Test(arguments: essentialsOnly) func linksNoFullFoundation(tool: String) throws {
        guard onPath("readelf") else { print("FoundationLinkTests: skipped, readelf (binutils) is not installed"); return }
        let r = try runCommand("/usr/bin/env", ["readelf", "-d", ToolRunner.path(tool)])
        #expect(r.status == 0, "readelf: \(r.stderr)")
        let needed = r.lines.filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libc.so") }, "readelf lists the NEEDED libraries: \(needed)")
        let foundation = needed.filter { $0.contains("[libFoundation.so]") || $0.contains("FoundationInternationalization") || $0.contains("_FoundationICU") }
        #expect(foundation.isEmpty, "\(tool) links \(foundation)")
    }

    /// libsystemd, SQLite and libgps are loaded with dlopen on first use (Sources/CSystemd, CSQLite,
    /// CGPS), so no tool names them, nor what they load, among its NEEDED libraries: a replay or a
    /// simulation maps none of them (issue #11 parts 3 and 5, docs/memory.md).
    @Test(arguments: essentialsOnly + ["imu-plot", "imu-stepd"]) func loadsServiceLibrariesOnDemand(tool: String) throws {
        guard onPath("readelf") else { print("FoundationLinkTests: skipped, readelf (binutils) is not installed"); return }
        let r = try runCommand("/usr/bin/env", ["readelf", "-d", ToolRunner.path(tool)])
        #expect(r.status == 0, "readelf: \(r.stderr)")
        let needed = r.lines.filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libc.so") }, "readelf lists the NEEDED libraries: \(needed)")
        let loadedOnDemand = needed.filter { line in ["libsystemd", "libsqlite3", "libgps", "libdbus"].contains { line.contains("[\($0)") } }
        #expect(loadedOnDemand.isEmpty, "\(tool) links \(loadedOnDemand)")
    }
}

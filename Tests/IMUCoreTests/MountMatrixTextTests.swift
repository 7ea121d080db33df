import Testing
import IMUCore

@Suite struct MountMatrixTextTests {
    /// A matrix read from sysfs, a config or --mount may hold any finite number: its text must
    /// not convert 1e300 to Int (a trap, seen through imu-info's listing).
    @Test func hugeEntriesPrintWithoutTrapping() throws {
        let m = try #require(MountMatrix(kernelText: "1e300, 0, 0; 0, -1e20, 0; 0, 0, 1"))
        #expect(m.description == "1e+300, 0, 0; 0, -1e+20, 0; 0, 0, 1")
        #expect(MountMatrix.identity.description == "1, 0, 0; 0, 1, 0; 0, 0, 1")
    }
}

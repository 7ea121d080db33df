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

    /// A zero or scaled matrix scales gravity away (0 steps without a word); 45° written to four
    /// decimals, as device trees do, is still a rotation; a reflection keeps unit rows too.
    @Test func onlyUnitRowsAtRightAnglesAreARotation() throws {
        for (text, rotation) in [("0, 1, 0; -1, 0, 0; 0, 0, 1", true), ("-1, 0, 0; 0, 1, 0; 0, 0, 1", true),
                                 ("0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1", true),
                                 ("0, 0, 0; 0, 0, 0; 0, 0, 0", false), ("2, 0, 0; 0, 2, 0; 0, 0, 2", false),
                                 ("1, 0, 0; 1, 0, 0; 0, 0, 1", false), ("1, 0, 0; 0, 1, 0; 0, 0, 0.9", false)] {
            let m = try #require(MountMatrix(kernelText: text))
            #expect(m.isRotation == rotation, "\(text)")
        }
    }
}

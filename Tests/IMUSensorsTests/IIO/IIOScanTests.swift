import Testing
@testable import IMUSensors

/// Scan bytes recorded in the kernel test ring (Tests/kernel): `iio_readdev -t imukit-tick -b 4 -s 2`
/// on the BMI160 and LIS3DH drivers bound to i2c-stub, after writing known values to the data
/// registers: BMI160 gyro (-300, 150, 32767), accel (0x1234, -2, 0x4000); LIS3DH accel
/// (-512, 100, 1024) as left-justified 12-bit.
enum RecordedScans {
    static let bmi160 = hex("d4fe9600ff7f3412feff0040000000001aee2a4d0b000000d4fe9600ff7f3412feff0040000000007c06c44d0b000000")
    static let lis3dh = hex("00e04006004000003498888f3de7ec1800e04006004000003ae421903de7ec18")

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return out
    }
}

@Suite struct IIOScanTypeTests {
    @Test func parsesKernelForms() throws {
        let a = try #require(IIOScanType(kernelText: "le:s16/16>>0"))
        #expect(a == IIOScanType(bigEndian: false, signed: true, realBits: 16, storageBits: 16, shift: 0))
        let b = try #require(IIOScanType(kernelText: "be:s12/16>>4\n"))
        #expect(b == IIOScanType(bigEndian: true, signed: true, realBits: 12, storageBits: 16, shift: 4))
        let c = try #require(IIOScanType(kernelText: "le:s16/16X3>>0"))
        #expect(c.repeats == 3 && c.totalBytes == 6)
        let d = try #require(IIOScanType(kernelText: "le:U24/32>>8"))   // libiio prints signedness in capitals
        #expect(!d.signed && d.realBits == 24 && d.storageBytes == 4)
        #expect(IIOScanType(kernelText: "le:s16/16>>0")?.description == "le:s16/16>>0")
    }

    @Test(arguments: ["", "xe:s16/16>>0", "le:q16/16>>0", "le:s16/12>>0", "le:s16/16>>1", "le:s0/16>>0",
                      "le:s16/16", "le:s16/16>>0 junk", "le:s16/16X0>>0", "le:s99999/16>>0"])
    func rejectsMalformed(_ text: String) {
        #expect(IIOScanType(kernelText: text) == nil)
    }

    @Test func decodesSignExtensionShiftAndByteOrder() {
        let be12 = IIOScanType(kernelText: "be:s12/16>>4")!
        [UInt8]([0xFF, 0xF0]).withUnsafeBytes { #expect(be12.decode($0, at: 0) == -1) }
        [UInt8]([0x7F, 0xF0]).withUnsafeBytes { #expect(be12.decode($0, at: 0) == 2047) }
        [UInt8]([0x80, 0x0F]).withUnsafeBytes { #expect(be12.decode($0, at: 0) == -2048) }  // low 4 bits are not data
        let u8 = IIOScanType(kernelText: "le:u8/8>>0")!
        [UInt8]([0xFF]).withUnsafeBytes { #expect(u8.decode($0, at: 0) == 255) }
        let s64 = IIOScanType(kernelText: "le:s64/64>>0")!
        [UInt8]([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).withUnsafeBytes { #expect(s64.decode($0, at: 0) == -1) }
    }
}

@Suite struct IIOScanLayoutTests {
    static let s16 = IIOScanType(kernelText: "le:s16/16>>0")!
    static let ts = IIOScanType(kernelText: "le:s64/64>>0")!

    @Test func alignsTimestampAndPadsScan() {
        let l = IIOScanLayout(channels: [("timestamp", 3, Self.ts), ("accel_z", 2, Self.s16), ("accel_x", 0, Self.s16), ("accel_y", 1, Self.s16)])
        #expect(l.elements.map(\.channel) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(l.scanBytes == 16)
    }

    @Test func repeatedElementTakesItsWholeLength() {
        let rep = IIOScanType(kernelText: "le:s16/16X3>>0")!
        let u8 = IIOScanType(kernelText: "le:u8/8>>0")!
        let l = IIOScanLayout(channels: [("flag", 0, u8), ("quat", 1, rep)])
        #expect(l.elements.map(\.offset) == [0, 6])
        #expect(l.scanBytes == 12)
    }

    @Test func demuxesRecordedBMI160Scans() {
        // bmi160 scan order: anglvel x y z (index 4..6), accel x y z (7..9), timestamp (10).
        let ids = ["anglvel_x", "anglvel_y", "anglvel_z", "accel_x", "accel_y", "accel_z"]
        let l = IIOScanLayout(channels: ids.enumerated().map { ($1, $0 + 4, Self.s16) } + [("timestamp", 10, Self.ts)])
        #expect(l.scanBytes == 24)
        var rows: [[Int64]] = []
        let n = RecordedScans.bmi160.withUnsafeBytes { l.demux($0) { rows.append(Array($0)) } }
        #expect(n == 2)
        #expect(rows[0] == [-300, 150, 32767, 0x1234, -2, 0x4000, 48_539_299_354])
        #expect(rows[1][0..<6] == rows[0][0..<6])
        // 100 Hz trigger: scans 10 ms apart, within the hrtimer's jitter under TCG.
        #expect((9_000_000...11_000_000).contains(rows[1][6] - rows[0][6]))
    }

    @Test func demuxesRecordedLIS3DHScansAndKeepsPartialTail() {
        let s12 = IIOScanType(kernelText: "le:s12/16>>4")!
        let l = IIOScanLayout(channels: [("accel_x", 0, s12), ("accel_y", 1, s12), ("accel_z", 2, s12), ("timestamp", 3, Self.ts)])
        var rows: [[Int64]] = []
        let bytes = RecordedScans.lis3dh + [0x00, 0xE0, 0x40]  // three bytes of a third scan: not decoded
        let n = bytes.withUnsafeBytes { l.demux($0) { rows.append(Array($0)) } }
        #expect(n == 2)
        #expect(rows.map { Array($0[0..<3]) } == [[-512, 100, 1024], [-512, 100, 1024]])
    }
}

import Foundation
import Testing
import IMUCore

/// `String(cFormat:)` stands in for Foundation's `String(format:)` where the tools print numbers;
/// the text must be the same to the byte (diagnostics, NMEA sentences, file names in messages).
@Suite struct CFormatTests {
    @Test(arguments: ["%.3f", "%+.2f", "%7.1f", "%.2f km", "%05.2f", "%.0f"])
    func doublesMatchFoundation(_ format: String) {
        for x in [0.0, -0.0, 1.0 / 3, -2.675, 12_345.678_9, 1e-9, -1e300, 0.005, 2.5] {
            #expect(String(cFormat: format, x) == String(format: format, x), "\(format) of \(x)")
        }
    }

    @Test func integersAndHexMatchFoundation() {
        for n in [0, 7, -42, 255, 3_000_000_000, Int.max] {
            #expect(String(cFormat: "%ld", n) == String(format: "%ld", n))
            #expect(String(cFormat: "%02ld", n) == String(format: "%02ld", n))
        }
        #expect(String(cFormat: "*%02X", UInt32(0x5A)) == "*5A")
        #expect(String(cFormat: "0x%08X", UInt32(0x4A4D5549)) == String(format: "0x%08X", UInt32(0x4A4D5549)))
    }

    @Test func longTextIsNotCut() {
        let wide = String(cFormat: "%300.1f|", 1.5)
        #expect(wide.count == 301 && wide.hasSuffix("1.5|"))
        #expect(String(cFormat: "a=%.1f b=%.1f c=%.1f", 1.0, 2.0, 3.0) == "a=1.0 b=2.0 c=3.0")
    }
}

import IMUCore

/// Writes simulated fixes as an NMEA 0183 log that gpsd reads (through `gpsfake` in the tests):
/// one `$GPRMC` (speed over ground in knots) and one `$GPGGA` (fix quality) per report.
///
/// The position is a fixed, made-up point (0° N, 0° E, in the ocean): IMUKit reads only speed,
/// and a simulated log has no place to reveal either.
public enum NMEAWriter {
    /// Knots per m/s (1 knot = 1852 m per hour).
    static let knotsPerMeterPerSecond = 3600.0 / 1852.0

    /// The log for `fixes`, the first stamped at `utcStart` (seconds since midnight UTC) and the
    /// rest at their offsets from it. `gaps`: times with no fix, written as "no fix" sentences.
    public static func log(_ fixes: [GNSSFix], utcStart: Double = 12 * 3600, noFixAt gaps: [Double] = []) -> String {
        guard let first = fixes.first?.time ?? gaps.first else { return "" }
        var lines: [(Double, [String])] = fixes.map { fix in
            let utc = utcStart + (fix.time - first)
            return (utc, [rmc(utc: utc, knots: fix.speed * knotsPerMeterPerSecond, valid: true), gga(utc: utc, valid: true)])
        }
        lines += gaps.map { t in
            let utc = utcStart + (t - first)
            return (utc, [rmc(utc: utc, knots: 0, valid: false), gga(utc: utc, valid: false)])
        }
        lines.sort { $0.0 < $1.0 }
        return lines.flatMap(\.1).map { $0 + "\r\n" }.joined()
    }

    static func rmc(utc: Double, knots: Double, valid: Bool) -> String {
        let body = valid
            ? "GPRMC,\(time(utc)),A,0000.000,N,00000.000,E,\(String(cFormat: "%.2f", knots)),0.0,010126,,,A"
            : "GPRMC,\(time(utc)),V,,,,,,,010126,,,N"
        return sentence(body)
    }

    static func gga(utc: Double, valid: Bool) -> String {
        let body = valid
            ? "GPGGA,\(time(utc)),0000.000,N,00000.000,E,1,08,0.9,10.0,M,0.0,M,,"
            : "GPGGA,\(time(utc)),,,,,0,00,,,,,,,"
        return sentence(body)
    }

    /// hhmmss.ss of seconds since midnight.
    static func time(_ seconds: Double) -> String {
        let s = seconds.truncatingRemainder(dividingBy: 86400)
        let h = Int(s / 3600), m = Int(s.truncatingRemainder(dividingBy: 3600) / 60)
        return String(cFormat: "%02ld%02ld%05.2f", h, m, s.truncatingRemainder(dividingBy: 60))
    }

    /// `$body*CS`: the checksum is the XOR of the body's bytes.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + String(cFormat: "*%02X", UInt32(checksum))
    }
}

import Foundation

/// Pressure to altitude by the International Standard Atmosphere's barometric formula (troposphere):
/// h = 44330.8 m · (1 − (p / 1013.25 hPa)^0.190263). The plot shows differences only, so the
/// weather's sea-level pressure cancels out.
enum Altitude {
    static func meters(pressure hPa: Double) -> Double {
        44330.8 * (1 - pow(hPa / 1013.25, 0.190263))
    }
}

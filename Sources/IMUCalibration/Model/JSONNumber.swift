import Foundation

/// Numbers from `JSONSerialization`, read exactly. Foundation hands long decimals (17 or more
/// digits) over as `NSDecimalNumber`, whose `doubleValue` is off by several units in the last
/// place, so a saved file would not read back to the same value (found by `make fuzz`);
/// its decimal text, parsed by Swift, is correctly rounded. JSON `true`/`false` are not numbers.
enum JSONNumber {
    static func double(_ any: Any?) -> Double? {
        guard let n = any as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        if n is NSDecimalNumber { return Double(n.stringValue) }
        return n.doubleValue
    }
}

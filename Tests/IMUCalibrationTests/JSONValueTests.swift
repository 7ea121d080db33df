import Foundation
import Testing
@testable import IMUCalibration

/// The project's own JSON reader and writer (the calibration and walker-profile files), checked
/// against Foundation's `JSONSerialization`, which wrote and read those files before.
@Suite struct JSONValueTests {
    /// Foundation's reading of `text`, as a JSONValue (numbers as Double), nil when it refuses.
    func foundation(_ text: String) -> JSONValue? {
        func convert(_ any: Any) -> JSONValue {
            switch any {
            case is NSNull: return .null
            case let n as NSNumber where String(cString: n.objCType) == "c": return .bool(n.boolValue)
            case let n as NSDecimalNumber: return .number(Double(n.stringValue)!)
            case let n as NSNumber: return .number(n.doubleValue)
            case let s as String: return .string(s)
            case let a as [Any]: return .array(a.map(convert))
            case let o as [String: Any]: return .object(o.mapValues(convert))
            default: Issue.record("unexpected \(type(of: any))"); return .null
            }
        }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)).map(convert)
    }

    @Test(arguments: [
        #"{"version":1,"height_m":1.8}"#, #"  [1, -2.5e3, 0.702, 1E2, -0, 1e-7]  "#, #"{"a":{"b":[true,false,null]}}"#,
        #"["a\/b","q\"b\\","\u00e9\u20ac","\ud83d\ude00","\t\n\r\b\f","é€😀"]"#, #"{"a":1,"a":2}"#, #"[]"#, #"{}"#,
        #"{"stride_m":1.0977777777777777777777777777777777777777}"#, "\u{FEFF}[1]", #""x""#, "3", "null",
    ])
    func readsWhatFoundationRead(text: String) throws {
        let ours = try JSONValue.parse(Array(text.utf8))
        #expect(ours == foundation(text), "\(text)")
    }

    /// Refused: broken JSON, and what Foundation let through but RFC 8259 does not (a trailing
    /// comma), or what has no Double (1e400).
    @Test(arguments: [
        "", "[", "[1,]", #"{"a":1,}"#, "[01]", "[1.]", "[.5]", "[+1]", "[1e]", "[1e400]", "[-]", "[NaN]", "[Infinity]",
        #"{"a" 1}"#, #"{a:1}"#, "[1] [2]", #"["\ud800"]"#, #"["\udc00\ud800"]"#, #"["\x"]"#, "[\"a\u{01}\"]", #"["\u12"]"#,
        "[tru]", "nul", "// c\n[1]", "[1]\u{00}",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func refusesBytesThatAreNotUTF8AndDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]) }
        let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect((try? JSONValue.parse(Array(fine.utf8))) != nil)
    }

    @Test func errorsSayWhere() {
        do {
            _ = try JSONValue.parse(Array(#"{"a": [1, 2,]}"#.utf8))
            Issue.record("accepted a trailing comma")
        } catch {
            #expect(error.offset == 12 && error.description == "expected a value at byte 12")
        }
    }

    /// Strings come out as JSONSerialization wrote them, escapes and all.
    @Test(arguments: ["i2c:/dev/i2c-1@0x68", "q\"b\\", "\u{01}\u{1f}\t\n\r\u{08}\u{0c}", "é€😀", "\u{7f}\u{2028}", ""])
    func quotesStringsLikeFoundation(text: String) throws {
        let foundation = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
        #expect("[" + JSONText.quoted(text) + "]" == foundation)
        #expect(try JSONValue.parse(Array(JSONText.quoted(text).utf8)) == .string(text))
    }

    /// The walker profile file is byte for byte what `[.prettyPrinted, .sortedKeys]` wrote.
    @Test(arguments: [
        WalkerProfile(heightMeters: 1.82),
        WalkerProfile(paces: [(1.8, 0.702), (2.81, 1.091)], floorHeightMeters: 3.5),
        WalkerProfile(paces: [(1.78, 0.7), (2.05, 0.79)]),
        WalkerProfile(heightMeters: 2, floorHeightMeters: 3),
        WalkerProfile(),
    ])
    func walkerProfileTextIsFoundations(profile: WalkerProfile) throws {
        var object: [String: Any] = ["version": WalkerProfile.formatVersion]
        if let h = profile.heightMeters { object["height_m"] = h }
        if let p = profile.paces { object["paces"] = p.map { ["cadence_steps_per_s": $0.cadence, "stride_m": $0.stride] } }
        if let f = profile.floorHeightMeters { object["floor_height_m"] = f }
        let foundation = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        #expect(profile.jsonText == String(decoding: foundation, as: UTF8.self) + "\n")
    }

    @Test func numbersInTheirShortestForm() {
        #expect(JSONText.number(3) == "3" && JSONText.number(-0.5) == "-0.5" && JSONText.number(0.702) == "0.702")
        #expect(JSONText.number(1e-7) == "1e-07" && JSONText.number(1e300) == "1e+300" && JSONText.number(.nan) == "null")
        #expect(JSONText.pretty(object: [("b", "1"), ("a", JSONText.pretty(array: ["2"], level: 1))])
                == "{\n  \"a\" : [\n    2\n  ],\n  \"b\" : 1\n}")
    }
}

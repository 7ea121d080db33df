import Testing
import IMUCore

/// The two JSON string forms (RFC 8259, section 7). The `jsonSerialization` form is also checked
/// against Foundation itself in IMUCalibrationTests/JSONValueTests.
@Suite struct JSONStringTests {
    static let text = "a/b \"q\" \\ \u{08}\u{0C}\n\r\t\u{01}\u{1F} é →"

    @Test func compactLeavesTheSlashAndNamesOnlyNewlineReturnAndTab() {
        #expect(JSONString.quoted(Self.text)
                == #""a/b \"q\" \\ \u0008\u000c\n\r\t\u0001\u001f é →""#)
    }

    @Test func theJSONSerializationFormEscapesTheSlashAndNamesBackspaceAndFormFeed() {
        #expect(JSONString.quoted(Self.text, style: .jsonSerialization)
                == #""a\/b \"q\" \\ \b\f\n\r\t\u0001\u001f é →""#)
    }
}

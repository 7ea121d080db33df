import Testing
@testable import IMUSensors

/// The host of an `ip:` context is looked up before libiio is asked (libiio's Avahi fallback
/// printed "Unable to create Avahi DNS-SD client" for a mistyped name).
@Suite struct IIOHostLookupTests {
    @Test func theHostIsReadAsIIOSourceSpecWritesIt() {
        #expect(IIOHostLookup.host(ofURI: "ip:192.168.1.20") == "192.168.1.20")
        #expect(IIOHostLookup.host(ofURI: "ip:board.lan:30431") == "board.lan")
        #expect(IIOHostLookup.host(ofURI: "ip:fe80::1") == "fe80::1", "an IPv6 literal has no port")
        #expect(IIOHostLookup.host(ofURI: "local:") == nil)
    }

    /// Addresses and localhost resolve without any network; `.invalid` never does (RFC 6761).
    @Test func aNameThatDoesNotResolveHasAReason() {
        #expect(IIOHostLookup.failure("127.0.0.1") == nil)
        #expect(IIOHostLookup.failure("localhost") == nil)
        #expect(IIOHostLookup.failure("imukit-board.invalid")?.isEmpty == false)
        #expect(IIOHostLookup.isMulticastName("pinephone.local") && IIOHostLookup.isMulticastName("Board.LOCAL."))
        #expect(!IIOHostLookup.isMulticastName("localhost") && !IIOHostLookup.isMulticastName("board.locale"))
    }
}

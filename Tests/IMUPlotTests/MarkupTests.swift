import Testing
@testable import IMUPlot

@Suite struct MarkupTests {
    @Test func fileNamesCannotBreakTheDocument() {
        #expect(Markup.escape("a<b>&\"c'.csv") == "a&lt;b&gt;&amp;&quot;c&#39;.csv")
        #expect(Markup.escape("bell\u{07}esc\u{1B}[31m") == "bell\u{FFFD}esc\u{FFFD}[31m")
        #expect(Markup.escape("Zürich ↑") == "Zürich ↑")
    }

    @Test func numbersIgnoreTheLocaleAndNeverReadMinusZero() {
        #expect(Number.text(-0.0001, decimals: 2) == "0.00")
        #expect(Number.text(-1.25, decimals: 1) == "-1.3" || Number.text(-1.25, decimals: 1) == "-1.2")
        #expect(Number.text(1234.5678, decimals: 3) == "1234.568")
        #expect(Number.px(12.0) == "12")
        #expect(Number.duration(3725) == "1:02:05")
        #expect(Number.label(2.5, step: 0.5) == "2.5")
    }
}

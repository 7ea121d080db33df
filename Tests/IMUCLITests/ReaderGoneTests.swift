import Testing
@testable import IMUCLI

/// The closed-pipe words say what the tool knows: how much it wrote into the pipe, and that the
/// reader closed its end. A pipe holds up to 64 KiB (pipe(7)) that a reader which closed never
/// took, so the count is not what the reader read, and the words must not say it was.
@Suite struct ReaderGoneTests {
    @Test func theCountIsWhatWasWrittenIntoThePipe() {
        let lines = ReaderGone(written: 3).description
        #expect(lines.contains("closed its end, so this stopped after writing 3 lines into the pipe"), "\(lines)")
        #expect(lines.contains("the reader may not have read them all"), "\(lines)")
        let samples = ReaderGone(written: 1, unit: "samples").description
        #expect(samples.contains("after writing 1 sample into the pipe"), "\(samples)")
    }
}

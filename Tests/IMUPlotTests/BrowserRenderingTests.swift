import Foundation
import OffPool
import Testing
@testable import IMUPlot

/// Each kind of plot rendered in headless Chromium, looked at as pixels: the panels hold data, step
/// ticks sit where `imu-steps --json` puts the steps, the page logs nothing to the console, and a
/// dark-mode viewer shows the same picture.
@Suite(.offPool, .serialized, .enabled(if: Browser.path != nil, "\(Browser.absentMessage)"))
struct BrowserRenderingTests {
    /// Coloured pixels in a panel's plot area: the data marks are all coloured (Palette), the
    /// frame, grid and labels grey.
    func chromatic(_ image: PNGImage, _ facts: SVGFacts, _ panel: String) throws -> Int {
        let p = try #require(facts.panel(panel), "the SVG has no panel '\(panel)'")
        let x0 = Int(facts.number("data-x0", in: "<svg") ?? 0), x1 = Int(facts.number("data-x1", in: "<svg") ?? 0)
        return image.count(x: (x0 + 1)..<(x1 - 1), y: (p.top + 1)..<(p.bottom - 1)) { image.isChromatic($0, $1) }
    }

    func wellFormed(_ path: String) throws {
        guard let xmllint = BuiltTool.xmllint else { return }
        let r = try BuiltTool.runExecutable(xmllint, ["--noout", path], timeout: 60)
        #expect(r.status == 0, "xmllint: \(r.stderr)")
    }

    @Test func stepTicksSitWhereTheJSONSaysAndEveryPanelHoldsData() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let env = Recordings.cleanEnvironment(dir)
        let (recording, _) = try Recordings.write("demo", to: dir, name: "demo.csv")
        let svg = dir.appendingPathComponent("demo.svg").path
        let plot = try BuiltTool.run("imu-plot", ["--replay", recording, "-o", svg], environment: env)
        #expect(plot.status == 0, "imu-plot: \(plot.stderr)")
        try wellFormed(svg)

        let json = try BuiltTool.run("imu-steps", ["--replay", recording, "--json"], environment: env)
        #expect(json.status == 0, "imu-steps: \(json.stderr)")
        let steps: [Double] = json.stdout.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["type"] as? String == "step" else { return nil }
            return o["t"] as? Double
        }
        #expect(steps.count > 100, "the demo walk has well over a hundred steps; imu-steps found \(steps.count)")

        let facts = try SVGFacts(path: svg)
        let shot = try Browser.render(svg, width: facts.width, height: facts.height)
        #expect(shot.consoleLines.isEmpty, "console: \(shot.consoleLines)")
        let image = shot.image
        let strip = try #require(facts.panel("steps"))
        let row = (strip.top + strip.bottom) / 2
        let tickColumns = Set((0..<image.width).filter { image.matches($0, row, Palette.step) })
        let expected = Set(try steps.map { Int(try #require(facts.x($0)).rounded(.down)) })
        let misplaced = expected.filter { x in !(x - 1...x + 1).contains { tickColumns.contains($0) } }
        let extra = tickColumns.filter { x in !(x - 1...x + 1).contains { expected.contains($0) } }
        #expect(misplaced.isEmpty, "\(misplaced.count) of \(expected.count) JSON steps have no tick within 1 px, e.g. x = \(misplaced.sorted().prefix(5))")
        #expect(extra.isEmpty, "\(extra.count) tick columns have no JSON step within 1 px, e.g. x = \(extra.sorted().prefix(5))")

        // Every panel's plot area holds data: at least 0.5 % of its pixels are coloured marks.
        for panel in ["acceleration", "cadence", "altitude", "activity"] {
            let p = try #require(facts.panel(panel))
            let area = (p.bottom - p.top) * (facts.width - 80)
            let n = try chromatic(image, facts, panel)
            #expect(Double(n) > 0.005 * Double(area), "panel \(panel) looks blank: \(n) coloured pixels of \(area)")
        }
    }

    @Test func simulatedPlotShowsTheTruthAndLooksTheSameInADarkViewer() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let svg = dir.appendingPathComponent("sim.svg").path
        let plot = try BuiltTool.run("imu-plot", ["--simulate", "stairs-up", "-o", svg], environment: Recordings.cleanEnvironment(dir))
        #expect(plot.status == 0, "imu-plot: \(plot.stderr)")
        try wellFormed(svg)
        let facts = try SVGFacts(path: svg)
        let light = try Browser.render(svg, width: facts.width, height: facts.height)
        let dark = try Browser.render(svg, width: facts.width, height: facts.height, dark: true)
        #expect(light.consoleLines.isEmpty && dark.consoleLines.isEmpty, "console: \(light.consoleLines + dark.consoleLines)")
        let changed = light.image.difference(from: dark.image)
        #expect(changed < 0.001, "\(Int(changed * 100)) % of the pixels change in a dark viewer")
        // The true steps strip holds black ticks.
        let strip = try #require(facts.panel("true-steps"))
        let row = (strip.top + strip.bottom) / 2
        let black = light.image.count(x: 70..<(facts.width - 20), y: row..<(row + 1)) { light.image.matches($0, $1, "#000000", tolerance: 60) }
        #expect(black > 20, "the true-steps strip shows \(black) black tick columns")
        for panel in ["acceleration", "altitude"] { #expect(try chromatic(light.image, facts, panel) > 500, "panel \(panel) looks blank") }
    }

    @Test func aRecordingWithoutBarometerSaysSoInALabelledEmptyPanel() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let (recording, _) = try Recordings.write("walk", to: dir, name: "nobaro.csv", barometer: false)
        let svg = dir.appendingPathComponent("nobaro.svg").path
        let plot = try BuiltTool.run("imu-plot", ["--replay", recording, "-o", svg], environment: Recordings.cleanEnvironment(dir))
        #expect(plot.status == 0, "imu-plot: \(plot.stderr)")
        try wellFormed(svg)
        let facts = try SVGFacts(path: svg)
        #expect(facts.text.contains("No barometer in this recording (no p column)"))
        let shot = try Browser.render(svg, width: facts.width, height: facts.height)
        #expect(shot.consoleLines.isEmpty, "console: \(shot.consoleLines)")
        #expect(try chromatic(shot.image, facts, "altitude") == 0, "no altitude data is drawn")
        let p = try #require(facts.panel("altitude"))
        let words = shot.image.count(x: 300..<(facts.width - 300), y: p.top..<p.bottom) { x, y in
            let c = shot.image.rgb(x, y)
            return c.r < 160 && c.g < 160 && c.b < 160
        }
        #expect(words > 200, "the empty altitude panel carries its message (\(words) dark text pixels)")
        #expect(try chromatic(shot.image, facts, "acceleration") > 500)
    }
}

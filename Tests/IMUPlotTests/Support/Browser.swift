import Foundation

/// Debian's headless Chromium, rendering a file to a PNG as a user's browser would.
enum Browser {
    /// The chromium binary: $CHROMIUM, else `chromium` or `chromium-browser` on PATH; nil if absent.
    static let path: String? = {
        if let p = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: p) { return p }
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for d in dirs where FileManager.default.isExecutableFile(atPath: "\(d)/\(name)") { return "\(d)/\(name)" }
        }
        return nil
    }()

    static let absentMessage = "chromium is not installed: `apt-get install chromium` (scripts/ensure-deps.sh test installs it; CI does)"

    struct Rendering {
        var image: PNGImage
        /// Lines Chromium logged from the page's console (JavaScript errors, blocked loads, CSP
        /// violations all land there).
        var consoleLines: [String]
    }

    /// Renders `file` in a `width` × `height` window; `dark` turns on the browser's dark mode and
    /// its automatic darkening of pages, as a dark-themed viewer would.
    static func render(_ file: String, width: Int, height: Int, dark: Bool = false) throws -> Rendering {
        guard let chromium = path else { throw InflateError(description: absentMessage) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("shot.png").path
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                         "--user-data-dir=\(dir.path)/profile", "--enable-logging=stderr", "--hide-scrollbars",
                         "--window-size=\(width),\(height)", "--screenshot=\(png)"]
        if dark { arguments += ["--force-dark-mode", "--enable-features=WebContentsForceDark"] }
        arguments.append(URL(fileURLWithPath: file).absoluteString)
        let result = try BuiltTool.runExecutable(chromium, arguments, timeout: 90)
        guard FileManager.default.fileExists(atPath: png) else {
            throw InflateError(description: "chromium wrote no screenshot (status \(result.status)): \(result.stderr.suffix(2000))")
        }
        // IMUKIT_KEEP_PLOTS=DIR keeps each screenshot there, to look at as a user would.
        if let keep = ProcessInfo.processInfo.environment["IMUKIT_KEEP_PLOTS"] {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + (dark ? "-dark" : "") + ".png"
            try? FileManager.default.removeItem(atPath: keep + "/" + name)
            try? FileManager.default.copyItem(atPath: png, toPath: keep + "/" + name)
        }
        let console = (result.stderr + result.stdout).split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
        return Rendering(image: try PNGImage(path: png), consoleLines: console)
    }
}

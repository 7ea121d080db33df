import CSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import IMUCore

/// Opens a history file: refuses what is not ours without writing a byte to it, then sets WAL
/// mode and applies the missing migrations.
enum HistoryFile {
    /// The 16 bytes every SQLite 3 database starts with (https://sqlite.org/fileformat.html §1.3).
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// Opens `path` for writing (creating it when absent) or, with `readOnly`, for reading only.
    /// `upTo` is the schema version to migrate to (tests use it to make old files).
    static func open(path: String, readOnly: Bool, upTo target: Int = Schema.version) throws(HistoryError) -> SQLiteConnection {
        do {
            return try open(path: path, readOnly: readOnly, upTo: target, immutable: false)
        } catch let error where readOnly && needsImmutableRead(error, path: path) {
            return try open(path: path, readOnly: true, upTo: target, immutable: true)
        }
    }

    /// A WAL database whose writer has stopped (its -wal and -shm files removed) cannot be read by
    /// a user who may not create them beside it: SQLite answered "attempt to write a readonly
    /// database" to `imu-plot --day` as any user but imu-stepd once the service stopped. With no
    /// -wal file the main file holds every committed minute, so it is read as immutable; a writer
    /// starting meanwhile appends to a new -wal this read does not see (a snapshot, as any read).
    private static func needsImmutableRead(_ error: HistoryError, path: String) -> Bool {
        guard case .cannotOpen = error, access(path, R_OK) == 0, access(path + "-wal", F_OK) != 0 else { return false }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return access(directory.isEmpty ? "/" : directory, W_OK) != 0
    }

    private static func open(path: String, readOnly: Bool, upTo target: Int, immutable: Bool) throws(HistoryError) -> SQLiteConnection {
        if let problem = csqlite_load() { throw HistoryError.libraryMissing(detail: String(cString: problem)) }
        let exists = try checkHeader(path: path, mustExist: readOnly)
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE))
        let db: SQLiteConnection
        do {
            db = immutable ? try SQLiteConnection(path: immutableURI(path), flags: flags | SQLITE_OPEN_URI)
                           : try SQLiteConnection(path: path, flags: flags)
        } catch {
            throw classify(error, path: path)
        }
        // Until the file is known to be ours, closing it must not checkpoint a WAL left beside it.
        csqlite_no_checkpoint_on_close(db.handle, 1)
        do {
            // Readers wait for a writer's checkpoint rather than fail (ms, far below a query's deadline).
            try db.execute("PRAGMA busy_timeout = 2000")
            let version = try identify(db, path: path, checkPages: !readOnly)
            if readOnly {
                guard version == target else { throw HistoryError.needsMigration(path: path, found: version, supported: target) }
                try db.execute("PRAGMA query_only = 1")
                return db
            }
            // WAL: a reader never blocks the writer, and a commit appends to the -wal file.
            // synchronous=FULL syncs the WAL at every commit, so a power cut loses only what was
            // not committed yet (NORMAL would keep durability only against a crash of the process).
            guard try db.texts("PRAGMA journal_mode = WAL").first?.lowercased() == "wal" else {
                throw HistoryError.io(path: path, detail: "the file system refuses SQLite's WAL mode (it needs shared memory: not a network file system)")
            }
            try db.execute("PRAGMA synchronous = FULL")
            csqlite_no_checkpoint_on_close(db.handle, 0)
            try migrate(db, from: version, to: target)
            return db
        } catch let error as HistoryError {
            throw error
        } catch let error as SQLiteFailure {
            throw classify(error, path: path)
        } catch {
            throw HistoryError.io(path: path, detail: "\(error)")
        }
    }

    /// `file:PATH?immutable=1` (https://sqlite.org/uri.html), every byte but unreserved ones and
    /// "/" percent-encoded, so "?", "#" and "%" in a name stay part of it.
    static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for b in path.utf8 {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/-._~".utf8.contains(b) {
                uri.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                uri += String(cFormat: "%%%02X", Int32(b))
            }
        }
        return uri + "?immutable=1"
    }

    /// Checks the first bytes before SQLite sees the file. Returns whether the file exists.
    private static func checkHeader(path: String, mustExist: Bool) throws(HistoryError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if mustExist { throw HistoryError.cannotOpen(path: path, detail: "there is no history file there") }
            return false
        }
        if let kind = SmallFile.kind(ofMode: info.st_mode) { throw HistoryError.notAFile(path: path, kind: kind) }
        if info.st_mode & S_IFMT == S_IFDIR { throw HistoryError.cannotOpen(path: path, detail: "it is a directory") }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw HistoryError.cannotOpen(path: path, detail: code == EACCES ? "permission denied" : String(cString: strerror(code)))
        }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: sqliteMagic.count)
        var got = 0
        while got < head.count {
            let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        head.removeLast(head.count - got)
        // An empty file is an empty SQLite database (SQLite writes its header at the first change).
        if !head.isEmpty && Array(head) != sqliteMagic { throw HistoryError.notADatabase(path: path) }
        return true
    }

    /// Returns the schema version of an IMUKit history (0 for a new, empty database); throws for
    /// a foreign, newer or damaged file. Reads only.
    private static func identify(_ db: SQLiteConnection, path: String, checkPages: Bool) throws -> Int {
        let application = try db.integer("PRAGMA application_id") ?? 0
        let version = Int(clamping: try db.integer("PRAGMA user_version") ?? 0)
        let tables = Set(try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table'"))
        if application == 0 && tables.isEmpty { return 0 }
        guard application == Schema.applicationID else {
            let detail = application == 0 ? "tables \(tables.sorted().prefix(4).joined(separator: ", "))"
                                          : "application id \(String(cFormat: "0x%08X", application))"
            throw HistoryError.foreignDatabase(path: path, detail: detail)
        }
        guard version <= Schema.version else { throw HistoryError.newerSchema(path: path, found: version, supported: Schema.version) }
        guard Schema.firstTables.isSubset(of: tables) else {
            throw HistoryError.corrupt(path: path, detail: "tables missing: \(Schema.firstTables.subtracting(tables).sorted().joined(separator: ", "))")
        }
        // The writer checks every page before it adds to the file: quick_check reads each page
        // once (O(size): imu-bench-history prints the time for a year) and finds damaged pages and
        // records, without the index checks of integrity_check. A reader skips it (it cannot make
        // damage worse, and a damaged page it meets fails its query with SQLITE_CORRUPT).
        guard checkPages else { return version }
        let problems = try db.texts("PRAGMA quick_check(3)")
        guard problems == ["ok"] else {
            throw HistoryError.corrupt(path: path, detail: problems.joined(separator: "; "))
        }
        return version
    }

    /// Applies migrations `from + 1 ... to`, each in one transaction with its version number.
    static func migrate(_ db: SQLiteConnection, from: Int, to: Int) throws(SQLiteFailure) {
        guard from < to else { return }
        for version in (from + 1)...to {
            try db.execute("BEGIN IMMEDIATE")
            do {
                if version == 1 { try db.execute("PRAGMA application_id = \(Schema.applicationID)") }
                try db.execute(Schema.migrations[version - 1])
                try db.execute("PRAGMA user_version = \(version)")
                try db.execute("COMMIT")
            } catch {
                if db.inTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Turns a SQLite failure into the error a person can act on.
    static func classify(_ failure: SQLiteFailure, path: String) -> HistoryError {
        switch failure.primary {
        case SQLITE_NOTADB: .notADatabase(path: path)
        case SQLITE_CORRUPT: .corrupt(path: path, detail: failure.message)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            .cannotOpen(path: path, detail: failure.message)
        case SQLITE_FULL: .diskFull(path: path, bufferedMinutes: nil)
        default: failure.isDiskFull ? .diskFull(path: path, bufferedMinutes: nil) : .io(path: path, detail: failure.message)
        }
    }
}

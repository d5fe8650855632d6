import ArgumentParser
import Foundation
import LensApp
import LensCore
import LensWeb
import Logging
import ServiceLifecycle

/// The web page's address: `--listen`, else the configuration's `[web] listen`, else 127.0.0.1:7466.
struct ListenOption: ParsableArguments {
    @Option(help: ArgumentHelp("Where to listen, HOST:PORT (port 0 picks a free one); default: [web] listen, else 127.0.0.1:7466.",
                               valueName: "host:port"))
    var listen: String?

    func address(_ settings: LensConfiguration) throws -> ListenAddress {
        guard let listen else { return settings.web.listen }
        do { return try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen: \(error.description)") }
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Show the library as a local web page: search as you type, screenshots with their words, the mind map.",
        discussion: """
            Serves http://127.0.0.1:7466/ (loopback only) and prints the address. The page reads \
            the same database as the command line and never blocks the daemon's writes; new \
            screenshots appear on it as the daemon indexes them. With '[web] enabled = true' in \
            the configuration, 'lens watch' serves the same page. Listening on another address \
            needs '[web] token' in the configuration, and every request then carries it. \
            Ctrl-C or SIGTERM stops it.

            Examples:
              lens serve
              lens serve --listen 127.0.0.1:0
              lens open invoice
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var listenOption: ListenOption

    func run() async throws {
        let settings = try configOption.load()
        var global = global
        if global.db == nil, let database = settings.database { global.db = database }
        if global.logLevel == "warning" { global.logLevel = "notice" }
        let library = try global.openLibrary()
        let application: any Service
        do {
            application = try WebServer.makeApplication(
                library: library, settings: WebSettings(settings, listen: try listenOption.address(settings)),
                logger: Logger(label: "lens.serve"),
                onRunning: { url in
                    print("Lens is at \(url)")
                    fflush(nil)
                })
        } catch let error as WebServerError {
            throw LensCLIError(message: error.description)
        }
        do {
            try await ServiceGroup(services: [application], gracefulShutdownSignals: [.sigterm, .sigint],
                                   logger: Logger(label: "lens.serve")).run()
        } catch {
            throw LensCLIError(message: "the web server stopped: \(error)")
        }
    }
}

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the web page in the browser, optionally on a search.",
        discussion: """
            Opens the address 'lens serve' (or 'lens watch' with '[web] enabled') listens on with \
            xdg-open. Start one of them first.

            Examples:
              lens open
              lens open "order number"
            """)

    @OptionGroup var configOption: ConfigOption
    @OptionGroup var listenOption: ListenOption

    @Argument(help: ArgumentHelp("What to search for on the page.", valueName: "query"))
    var query: [String] = []

    @Flag(help: "Print the address instead of opening it.")
    var printOnly = false

    func run() throws {
        let settings = try configOption.load()
        let address = try listenOption.address(settings)
        // A wildcard address is reached through loopback.
        let reachable = ["0.0.0.0", "::"].contains(address.host) ? ListenAddress(host: "127.0.0.1", port: address.port) : address
        var url = "http://\(reachable)/"
        let text = query.joined(separator: " ")
        if !text.isEmpty {
            var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
            allowed.insert(charactersIn: "-._~")
            url += "?q=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        if printOnly {
            print(url)
            return
        }
        guard WebAddressProbe.isListening(reachable) else {
            throw LensCLIError(message: "nothing listens on \(address): start 'lens serve' (or 'lens watch' with [web] enabled = true)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            throw LensCLIError(message: "cannot run xdg-open (\(error)); open \(url) in a browser")
        }
        guard process.terminationStatus == 0 else {
            throw LensCLIError(message: "xdg-open failed; open \(url) in a browser")
        }
        print(url)
    }
}

/// Whether a TCP connection to the address succeeds (a server is there).
enum WebAddressProbe {
    static func isListening(_ address: ListenAddress) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address.host, String(address.port), &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(found) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                defer { close(fd) }
                if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return true }
            }
            entry = info.pointee.ai_next
        }
        return false
    }
}

extension WebSettings {
    init(_ configuration: LensConfiguration, listen: ListenAddress) {
        self.init(listen: listen, token: configuration.web.token, region: configuration.region,
                  trashFolder: configuration.trashFolder, undoDays: configuration.undoDays)
    }
}

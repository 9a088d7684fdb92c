import Glibc

/// A dedicated POSIX thread for one libwebsockets context. Not a pool thread: the context's
/// event loop blocks it for the context's whole life.
enum ServiceThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// The reason `pthread_create` failed.
    struct StartError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// Runs `body` on a new detached thread with a 1 MiB stack.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws(StartError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 1 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            throw StartError(code: result)
        }
    }
}

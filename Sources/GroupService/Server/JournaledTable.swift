/// A dictionary that can note what a turn changes and put it back: while a turn is open, the
/// first change of each key saves its old value (or its absence), so that ``rollBack()`` restores
/// exactly those keys. A turn costs what it touches, not a copy of the whole table (a server's
/// thousands of connections and sessions), which is what keeping a copy of the table to restore
/// would cost at the turn's first change.
public struct JournaledTable<Key: Hashable & Sendable, Value: Sendable>: Sendable, Sequence {
    /// The entries.
    public private(set) var storage: [Key: Value] = [:]
    /// The old values of the keys changed since ``begin()``; `nil` when no turn is open.
    private var journal: [Key: Value?]?

    /// An empty table.
    public init() {}

    /// The value of `key`.
    public subscript(key: Key) -> Value? {
        get { storage[key] }
        set {
            note(key)
            storage[key] = newValue
        }
        _modify {
            note(key)
            yield &storage[key]
        }
    }

    private mutating func note(_ key: Key) {
        guard journal != nil, journal?.index(forKey: key) == nil else { return }
        journal?[key] = .some(storage[key])
    }

    /// Opens a turn (any open one is forgotten).
    public mutating func begin() { journal = [:] }

    /// Keeps what the turn changed.
    public mutating func commit() { journal = nil }

    /// Puts back every key the turn changed, as it was at ``begin()``.
    public mutating func rollBack() {
        guard let journal else { return }
        for (key, old) in journal { storage[key] = old }
        self.journal = nil
    }

    /// Removes `key`'s entry.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        note(key)
        return storage.removeValue(forKey: key)
    }

    public var keys: Dictionary<Key, Value>.Keys { storage.keys }
    public var values: Dictionary<Key, Value>.Values { storage.values }
    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    public func makeIterator() -> Dictionary<Key, Value>.Iterator { storage.makeIterator() }
}

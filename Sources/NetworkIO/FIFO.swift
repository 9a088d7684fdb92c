/// A first-in first-out queue with O(1) amortised `append` and `popFirst`, which releases each
/// element as soon as it is taken (large messages must not linger in a queue's storage).
struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0

    /// How many elements are queued.
    var count: Int { storage.count - head }
    /// Whether the queue is empty.
    var isEmpty: Bool { head == storage.count }
    /// The oldest element.
    var first: Element? { head < storage.count ? storage[head] : nil }

    /// Adds `element` at the back.
    mutating func append(_ element: Element) { storage.append(element) }

    /// Removes and returns the oldest element.
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes every element and returns them, oldest first.
    mutating func removeAll() -> [Element] {
        let elements = storage[head...].compactMap { $0 }
        storage = []
        head = 0
        return elements
    }
}

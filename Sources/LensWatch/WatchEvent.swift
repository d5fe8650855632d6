/// What the watcher saw, already reduced to what the indexer must do about it.
public enum WatchEvent: Sendable, Equatable {
    /// A file was completely written (`IN_CLOSE_WRITE`) or renamed into a watched folder
    /// (`IN_MOVED_TO`): a candidate, to be checked for stability and then hashed.
    case fileChanged(String)
    /// A file was deleted or moved out of the watched trees.
    case fileRemoved(String)
    /// A file was renamed within the watched trees (same bytes, new path).
    case fileMoved(from: String, to: String)
    /// A folder was created or moved in. It is already watched, recursively; files written into it
    /// before its watch existed (and everything a moved-in folder brought) are only found by a scan.
    case directoryAppeared(String)
    /// A watched folder was deleted or moved out.
    case directoryRemoved(String)
    /// The kernel's event queue overflowed: events were lost, so every tree must be rescanned.
    case overflow
    /// `inotify_add_watch` failed with ENOSPC (the `fs.inotify.max_user_watches` limit): this tree
    /// is not fully watched and must be polled instead.
    case watchLimitReached(String)
}

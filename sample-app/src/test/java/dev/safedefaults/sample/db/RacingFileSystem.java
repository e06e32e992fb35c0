package dev.safedefaults.sample.db;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The default file system, with another process deleting the same tree at the same time,
 * deterministically: the first time anyone reads the attributes of a file that matches,
 * that file is deleted just before, as when the other process removes an entry right
 * after a directory walk has listed it and before the walk looks at it.
 */
final class RacingFileSystem extends FileSystem {

	private final FileSystem real = FileSystems.getDefault();

	private final Provider provider = new Provider();

	private final Predicate<Path> deletedByTheOther;

	private final Set<Path> deleted = ConcurrentHashMap.newKeySet();

	/**
	 * A file system where another process deletes some files.
	 * @param deletedByTheOther the (real) files the other process deletes
	 */
	RacingFileSystem(Predicate<Path> deletedByTheOther) {
		this.deletedByTheOther = deletedByTheOther;
	}

	/**
	 * A real path on this file system.
	 * @param path a path on the default file system
	 * @return the same path on this one
	 */
	Path wrap(Path path) {
		return (path != null) ? new RacingPath(path) : null;
	}

	/**
	 * The files the other process deleted.
	 * @return real paths
	 */
	Set<Path> deletedByTheOther() {
		return Set.copyOf(this.deleted);
	}

	private static Path unwrap(Path path) {
		return ((RacingPath) Objects.requireNonNull(path)).real;
	}

	@Override
	public FileSystemProvider provider() {
		return this.provider;
	}

	@Override
	public void close() {
	}

	@Override
	public boolean isOpen() {
		return true;
	}

	@Override
	public boolean isReadOnly() {
		return false;
	}

	@Override
	public String getSeparator() {
		return this.real.getSeparator();
	}

	@Override
	public Iterable<Path> getRootDirectories() {
		return StreamSupport.stream(this.real.getRootDirectories().spliterator(), false)
			.map(this::wrap)
			.collect(Collectors.toList());
	}

	@Override
	public Iterable<FileStore> getFileStores() {
		return this.real.getFileStores();
	}

	@Override
	public Set<String> supportedFileAttributeViews() {
		return this.real.supportedFileAttributeViews();
	}

	@Override
	public Path getPath(String first, String... more) {
		return wrap(this.real.getPath(first, more));
	}

	@Override
	public PathMatcher getPathMatcher(String syntaxAndPattern) {
		PathMatcher matcher = this.real.getPathMatcher(syntaxAndPattern);
		return (path) -> matcher.matches(unwrap(path));
	}

	@Override
	public UserPrincipalLookupService getUserPrincipalLookupService() {
		return this.real.getUserPrincipalLookupService();
	}

	@Override
	public WatchService newWatchService() {
		throw new UnsupportedOperationException();
	}

	private final class RacingPath implements Path {

		private final Path real;

		RacingPath(Path real) {
			this.real = real;
		}

		@Override
		public FileSystem getFileSystem() {
			return RacingFileSystem.this;
		}

		@Override
		public boolean isAbsolute() {
			return this.real.isAbsolute();
		}

		@Override
		public Path getRoot() {
			return wrap(this.real.getRoot());
		}

		@Override
		public Path getFileName() {
			return wrap(this.real.getFileName());
		}

		@Override
		public Path getParent() {
			return wrap(this.real.getParent());
		}

		@Override
		public int getNameCount() {
			return this.real.getNameCount();
		}

		@Override
		public Path getName(int index) {
			return wrap(this.real.getName(index));
		}

		@Override
		public Path subpath(int beginIndex, int endIndex) {
			return wrap(this.real.subpath(beginIndex, endIndex));
		}

		@Override
		public boolean startsWith(Path other) {
			return this.real.startsWith(unwrap(other));
		}

		@Override
		public boolean endsWith(Path other) {
			return this.real.endsWith(unwrap(other));
		}

		@Override
		public Path normalize() {
			return wrap(this.real.normalize());
		}

		@Override
		public Path resolve(Path other) {
			return wrap(this.real.resolve(unwrap(other)));
		}

		@Override
		public Path relativize(Path other) {
			return wrap(this.real.relativize(unwrap(other)));
		}

		@Override
		public URI toUri() {
			return this.real.toUri();
		}

		@Override
		public Path toAbsolutePath() {
			return wrap(this.real.toAbsolutePath());
		}

		@Override
		public Path toRealPath(LinkOption... options) throws IOException {
			return wrap(this.real.toRealPath(options));
		}

		@Override
		public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
			throw new UnsupportedOperationException();
		}

		@Override
		public int compareTo(Path other) {
			return this.real.compareTo(unwrap(other));
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof RacingPath path && this.real.equals(path.real);
		}

		@Override
		public int hashCode() {
			return this.real.hashCode();
		}

		@Override
		public String toString() {
			return this.real.toString();
		}

	}

	private final class Provider extends FileSystemProvider {

		@Override
		public String getScheme() {
			return "racing";
		}

		@Override
		public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
			throw new UnsupportedOperationException();
		}

		@Override
		public FileSystem getFileSystem(URI uri) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Path getPath(URI uri) {
			throw new UnsupportedOperationException();
		}

		@Override
		public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
				FileAttribute<?>... attributes) throws IOException {
			return Files.newByteChannel(unwrap(path), options, attributes);
		}

		@Override
		public DirectoryStream<Path> newDirectoryStream(Path directory, DirectoryStream.Filter<? super Path> filter)
				throws IOException {
			DirectoryStream<Path> stream = Files.newDirectoryStream(unwrap(directory),
					(entry) -> filter.accept(wrap(entry)));
			return new DirectoryStream<>() {

				@Override
				public Iterator<Path> iterator() {
					Iterator<Path> entries = stream.iterator();
					return new Iterator<>() {

						@Override
						public boolean hasNext() {
							return entries.hasNext();
						}

						@Override
						public Path next() {
							return wrap(entries.next());
						}

					};
				}

				@Override
				public void close() throws IOException {
					stream.close();
				}

			};
		}

		@Override
		public void createDirectory(Path directory, FileAttribute<?>... attributes) throws IOException {
			Files.createDirectory(unwrap(directory), attributes);
		}

		@Override
		public void delete(Path path) throws IOException {
			Files.delete(unwrap(path));
		}

		@Override
		public void copy(Path source, Path target, CopyOption... options) throws IOException {
			Files.copy(unwrap(source), unwrap(target), options);
		}

		@Override
		public void move(Path source, Path target, CopyOption... options) throws IOException {
			Files.move(unwrap(source), unwrap(target), options);
		}

		@Override
		public boolean isSameFile(Path path, Path other) throws IOException {
			return Files.isSameFile(unwrap(path), unwrap(other));
		}

		@Override
		public boolean isHidden(Path path) throws IOException {
			return Files.isHidden(unwrap(path));
		}

		@Override
		public FileStore getFileStore(Path path) throws IOException {
			return Files.getFileStore(unwrap(path));
		}

		@Override
		public void checkAccess(Path path, AccessMode... modes) throws IOException {
			Path real = unwrap(path);
			real.getFileSystem().provider().checkAccess(real, modes);
		}

		@Override
		public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
			return Files.getFileAttributeView(unwrap(path), type, options);
		}

		@Override
		public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
				throws IOException {
			Path real = unwrap(path);
			if (RacingFileSystem.this.deletedByTheOther.test(real) && !RacingFileSystem.this.deleted.contains(real)
					&& Files.deleteIfExists(real)) {
				RacingFileSystem.this.deleted.add(real);
			}
			return Files.readAttributes(real, type, options);
		}

		@Override
		public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
				throws IOException {
			return Files.readAttributes(unwrap(path), attributes, options);
		}

		@Override
		public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
			Files.setAttribute(unwrap(path), attribute, value, options);
		}

	}

}

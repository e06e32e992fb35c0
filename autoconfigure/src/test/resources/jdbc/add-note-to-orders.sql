-- A schema migration run at startup through the application's pool (spring.sql.init), as
-- SocketTimeoutOnEmbeddedMariaDbTests runs it: it waits for the table's metadata lock.
ALTER TABLE orders ADD COLUMN note VARCHAR(40);

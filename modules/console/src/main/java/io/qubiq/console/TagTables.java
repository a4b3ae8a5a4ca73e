package io.qubiq.console;

/**
 * A device connection's tags as a table (CSV), to edit in a spreadsheet and bring back: the list of tags
 * of an OPC UA connection, the subscriptions of an MQTT one. The application implements it over the
 * configuration file; an import is a change of that list like any other ({@link ConfigChanges}).
 */
public interface TagTables {

    /**
     * The table of one connection's tags, one row per tag, one column per key (nested keys dotted:
     * {@code scale.raw_low}), as the configuration file holds them now.
     *
     * @param revision the file's revision the table was read from: the one to import on
     * @param file     a file name for a download, {@code <connection>-tags.csv}
     * @param csv      RFC 4180 text: a header row, then one row per tag; an empty cell is a key left out
     */
    record Table(String connection, String revision, String file, String csv) {
    }

    /**
     * @throws RequestFailure.NotFound no device connection {@code connection} in the file
     * @throws RequestFailure.Conflict a connection whose kind has no tag list
     */
    Table export(String connection);

    /**
     * Makes {@code csv} the connection's tag list, on {@code baseRevision}: every row checked at once, a
     * problem named by its CSV line ({@link ConfigAccess.Problem#line()}) and column key; nothing is written
     * unless every row is valid.
     *
     * @throws RequestFailure.NotFound     no such device connection
     * @throws RequestFailure.Conflict     a connection whose kind has no tag list
     */
    ConfigChanges.Outcome importCsv(String connection, String csv, String baseRevision, String comment,
                                    ConfigChanges.Author author);
}

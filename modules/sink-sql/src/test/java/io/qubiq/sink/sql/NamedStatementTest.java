package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NamedStatementTest {

    @Test
    void namedParametersBecomePlaceholdersInOrderAndRepeatsAreKept() {
        NamedStatement s = NamedStatement.parse("INSERT INTO t(a, b, c) VALUES (:a, :b_2, :a) ON CONFLICT (id) DO"
                + " UPDATE SET b = :B");

        assertThat(s.jdbcSql()).isEqualTo("INSERT INTO t(a, b, c) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET b = ?");
        assertThat(s.placeholders()).containsExactly("a", "b_2", "a", "B");
        assertThat(s.parameterNames()).containsExactly("a", "b_2", "B");
    }

    @Test
    void placeholderHintsPointIntoTheRowsParametersWithItemIdAside() {
        NamedStatement s = NamedStatement.parse("INSERT INTO t VALUES (:a, :item_id, :b, :a, :c)");

        assertThat(s.placeholderHints()).containsExactly(0, -1, 1, 0, 2);
    }

    @Test
    void castsAndNamedArgumentNotationAreNotParameters() {
        NamedStatement s = NamedStatement.parse("SELECT f(x := :v::numeric(10,2), y => :w)::text, '1'::int");

        assertThat(s.jdbcSql()).isEqualTo("SELECT f(x := ?::numeric(10,2), y => ?)::text, '1'::int");
        assertThat(s.parameterNames()).containsExactly("v", "w");
    }

    @Test
    void nothingInsideStringsIdentifiersOrCommentsIsAParameter() {
        String sql = "INSERT INTO \"odd:name\"\"x\" (\"a?\") VALUES ('it''s :not ?', E'\\' :no', $$ :no ? $$,"
                + " $tag$ :no $tag$, :yes) -- :no ?\n /* :no /* nested ? */ :still_no */";

        NamedStatement s = NamedStatement.parse(sql);

        assertThat(s.parameterNames()).containsExactly("yes");
        assertThat(s.jdbcSql()).isEqualTo(sql.replace(":yes", "?"));
    }

    @Test
    void aDollarInsideANameIsNotAQuote() {
        NamedStatement s = NamedStatement.parse("INSERT INTO a$b (c$) VALUES (:v)");

        assertThat(s.jdbcSql()).isEqualTo("INSERT INTO a$b (c$) VALUES (?)");
    }

    @Test
    void aStatementWithoutParametersIsKeptAsWritten() {
        NamedStatement s = NamedStatement.parse("DELETE FROM t");

        assertThat(s.jdbcSql()).isEqualTo("DELETE FROM t");
        assertThat(s.parameterNames()).isEmpty();
    }

    @Test
    void aColonWithoutANameIsRejectedWithItsOffset() {
        assertThatThrownBy(() -> NamedStatement.parse("INSERT INTO t VALUES (: a)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset 22")
                .hasMessageContaining("':' is not followed by a parameter name");
        assertThatThrownBy(() -> NamedStatement.parse("INSERT INTO t VALUES (:1)"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NamedStatement.parse("SELECT a[1:2] FROM t"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NamedStatement.parse("INSERT INTO t VALUES (:"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jdbcPlaceholdersAndPositionalParametersAreRejected() {
        assertThatThrownBy(() -> NamedStatement.parse("INSERT INTO t VALUES (?)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'?' outside quotes");
        assertThatThrownBy(() -> NamedStatement.parse("INSERT INTO t VALUES ($1)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positional parameter");
    }

    @Test
    void unterminatedQuotesAndCommentsAreRejected() {
        for (String sql : new String[] {"SELECT 'abc", "SELECT \"abc", "SELECT $x$ abc", "SELECT /* abc",
                "SELECT E'abc\\'", "SELECT /* /* */"}) {
            assertThatThrownBy(() -> NamedStatement.parse(sql)).as(sql)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unterminated");
        }
    }

    @Test
    void aBlankStatementIsRejected() {
        assertThatThrownBy(() -> NamedStatement.parse("  \n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> NamedStatement.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statementsAreEqualByTheirText() {
        assertThat(NamedStatement.parse("SELECT :a")).isEqualTo(NamedStatement.parse("SELECT :a"))
                .hasSameHashCodeAs(NamedStatement.parse("SELECT :a"));
        assertThat(NamedStatement.parse("SELECT :a")).hasToString("SELECT :a");
    }
}

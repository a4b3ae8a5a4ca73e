package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.auth.AuthConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route's {@link Reply} is what the console answers: the declared body as JSON, a declared failure kind
 * as its status and error body, and (with assertions on, as in every test run) a failure kind the
 * reply does not declare as a failed request, so the OpenAPI description cannot silently miss a status.
 */
class ReplyDeclarationTest {

    record Thing(String name, int count) {
    }

    @TempDir
    static Path dir;
    static ConsoleFixture console;

    @BeforeAll
    static void start() throws Exception {
        ApiRoutes routes = api -> {
            api.get("/api/v1/test/thing", Access.SIGNED_IN, "A thing", Reply.json(Thing.class),
                    ctx -> new Thing("gear", 3));
            api.post("/api/v1/test/things", Access.SIGNED_IN, "Create a thing", Reply.json(Thing.class).created(),
                    ctx -> new Thing("new", 1));
            api.get("/api/v1/test/declared", Access.SIGNED_IN, "Fails as declared",
                    Reply.json(Thing.class).failing(RequestFailure.NotFound.class), ctx -> {
                        throw new RequestFailure.NotFound("no thing 'x'");
                    });
            api.get("/api/v1/test/undeclared", Access.SIGNED_IN, "Fails with a kind it does not declare",
                    Reply.json(Thing.class), ctx -> {
                        throw new RequestFailure.NotFound("no thing 'y'");
                    });
        };
        console = new ConsoleFixture(dir, HttpConfig.plain("127.0.0.1", 0), ConsoleFixture.cheap(AuthConfig.defaults()),
                true, List.of(routes));
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    @Test
    void theHandlersAnswerIsWrittenAsJsonWithTheDeclaredStatus() {
        HttpResponse<String> thing = console.as("viewer").get("/api/v1/test/thing");
        assertThat(thing.statusCode()).isEqualTo(200);
        assertThat(thing.body()).isEqualTo("{\"name\":\"gear\",\"count\":3}");
        HttpResponse<String> created = console.as("viewer").post("/api/v1/test/things", "{}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.body()).isEqualTo("{\"name\":\"new\",\"count\":1}");
    }

    @Test
    void aDeclaredFailureIsAnsweredWithItsStatusAndTheErrorBody() {
        HttpResponse<String> response = console.as("viewer").get("/api/v1/test/declared");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("{\"status\":404,\"error\":\"no thing 'x'\"}");
    }

    @Test
    void aFailureTheReplyDoesNotDeclareFailsTheRequestWhileAssertionsAreOn() {
        assertThat(ReplyDeclarationTest.class.desiredAssertionStatus()).as("assertions are on in tests").isTrue();
        HttpResponse<String> response = console.as("viewer").get("/api/v1/test/undeclared");
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).doesNotContain("no thing 'y'");
    }
}

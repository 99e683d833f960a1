package io.jvmps.scheduler.dashboard;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/**
 * The dashboard's data: {@code GET /api/v1/dashboard} (one snapshot, JSON) and
 * {@code GET /api/v1/dashboard/stream} (server-sent events named {@code snapshot}, one per second).
 * The page itself is the static {@code /index.html} (also served at {@code /}).
 */
@RestController
@RequestMapping("/api/v1/dashboard")
public class DashboardController {
    private final DashboardFeed feed;

    /** @param feed the snapshot source */
    public DashboardController(DashboardFeed feed) {
        this.feed = feed;
    }

    @GetMapping
    public DashboardSnapshot snapshot() {
        return feed.snapshot();
    }

    @GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<DashboardSnapshot>> stream() {
        return feed.stream().map(s -> ServerSentEvent.<DashboardSnapshot>builder(s).event("snapshot")
                .id(Long.toString(s.timeMillis())).build());
    }
}

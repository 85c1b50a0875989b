package loadlab.orders;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A customer's open orders, priced by the backend: a blocking call, then (with a database) one query holding a
 * pooled connection, then JSON both ways (Jackson). {@code ?failAfter=N}: a fault switch for the lab's tests, every
 * order after the N-th answers 503, as an app whose dependency fails mid-run would.
 */
@RestController
class OrdersController {

    record Line(String sku, int quantity, long priceCents) {
    }

    record Orders(long customer, List<Line> lines, long totalCents, long backendMs) {
    }

    private final PricingClient pricing;
    private final JdbcTemplate jdbc;
    private final double holdSeconds;
    private final AtomicLong served = new AtomicLong();

    OrdersController(PricingClient pricing, ObjectProvider<JdbcTemplate> jdbc, OrdersProperties properties) {
        this.pricing = pricing;
        this.jdbc = jdbc.getIfAvailable();
        this.holdSeconds = properties.dbHold().toNanos() / 1e9;
    }

    @GetMapping("/orders/{customer}")
    Orders orders(@PathVariable long customer, @RequestParam(defaultValue = "0") long failAfter) {
        if (failAfter > 0 && served.incrementAndGet() > failAfter) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "failing after " + failAfter + " orders");
        }
        PricingClient.Quote quote = pricing.quote(customer);
        if (jdbc != null) {
            jdbc.queryForObject("select 1 from pg_sleep(?)", Integer.class, holdSeconds);
        }
        List<Line> lines = IntStream.rangeClosed(1, 3)
                .mapToObj(i -> new Line("SKU-" + (customer * 10 + i), i, 199L * i + customer % 100))
                .toList();
        long total = lines.stream().mapToLong(l -> l.priceCents() * l.quantity()).sum();
        return new Orders(customer, lines, total, quote.waitedMs());
    }
}

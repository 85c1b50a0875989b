package loadlab.orders;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The rest of the shop, so a load can be a mix (APP_REQUESTS): a cheap read that touches neither the backend nor the
 * database ({@code GET /products/{id}}), and a write with a JSON body that prices the item at the backend and holds a
 * pooled connection as long as an order does ({@code POST /carts}: 201, or 400 for a body without a positive
 * quantity).
 */
@RestController
class CatalogController {

    record Product(long id, String sku, long priceCents) {
    }

    record CartLine(long customer, String sku, int quantity) {
    }

    record Cart(long customer, String sku, int quantity, long totalCents, long backendMs) {
    }

    private final PricingClient pricing;
    private final JdbcTemplate jdbc;
    private final double holdSeconds;

    CatalogController(PricingClient pricing, ObjectProvider<JdbcTemplate> jdbc, OrdersProperties properties) {
        this.pricing = pricing;
        this.jdbc = jdbc.getIfAvailable();
        this.holdSeconds = properties.dbHold().toNanos() / 1e9;
    }

    @GetMapping("/products/{id}")
    Product product(@PathVariable long id) {
        return new Product(id, "SKU-" + id, 199L + id % 1000);
    }

    @PostMapping("/carts")
    @ResponseStatus(HttpStatus.CREATED)
    Cart addToCart(@RequestBody CartLine line) {
        if (line.quantity() <= 0 || line.sku() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a cart line needs a sku and a quantity > 0");
        }
        PricingClient.Quote quote = pricing.quote(line.customer());
        if (jdbc != null) {
            jdbc.queryForObject("select 1 from pg_sleep(?)", Integer.class, holdSeconds);
        }
        return new Cart(line.customer(), line.sku(), line.quantity(), 199L * line.quantity(), quote.waitedMs());
    }
}

package loadlab.orders;

import java.util.List;
import java.util.stream.IntStream;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** A customer's open orders, priced by the backend: a blocking call, then JSON both ways (Jackson). */
@RestController
class OrdersController {

    record Line(String sku, int quantity, long priceCents) {
    }

    record Orders(long customer, List<Line> lines, long totalCents, long backendMs) {
    }

    private final PricingClient pricing;

    OrdersController(PricingClient pricing) {
        this.pricing = pricing;
    }

    @GetMapping("/orders/{customer}")
    Orders orders(@PathVariable long customer) {
        PricingClient.Quote quote = pricing.quote();
        List<Line> lines = IntStream.rangeClosed(1, 3)
                .mapToObj(i -> new Line("SKU-" + (customer * 10 + i), i, 199L * i + customer % 100))
                .toList();
        long total = lines.stream().mapToLong(l -> l.priceCents() * l.quantity()).sum();
        return new Orders(customer, lines, total, quote.delayMs());
    }
}

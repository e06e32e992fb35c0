INSERT IGNORE INTO orders (id, customer, amount, status) VALUES
  (1, 'ada', 42.00, 'PAID'),
  (2, 'grace', 17.50, 'SHIPPED'),
  (3, 'linus', 99.90, 'NEW');

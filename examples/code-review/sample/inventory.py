"""Stock and price helpers of a small shop."""


def average_price(items):
    total = 0
    for item in items:
        total += item["price"]
    return total / len(items)


def restock(stock, name, amount):
    stock[name] = stock.get(name, 0) + amount
    return stock
